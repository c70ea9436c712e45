#!/usr/bin/env bash
# shellcheck shell=bash
# MCP roots: the directories the client allows tools to work in. The server passes them as
# MCP_ROOTS_PATHS (newline-separated), MCP_ROOTS_COUNT and MCP_ROOTS_JSON. Roots constrain
# only what these helpers check; tools are not sandboxed. Loaded by tool-sdk.sh on first use.

# mcp_roots_list
#   Prints the root paths, one per line (no trailing newline). Returns 0.
mcp_roots_list() {
	printf '%s' "${MCP_ROOTS_PATHS-}"
}

# mcp_roots_count
#   Prints the number of roots (0 when unset). Returns 0.
mcp_roots_count() {
	printf '%s' "${MCP_ROOTS_COUNT:-0}"
}

# mcp_roots_contains PATH
#   Returns 0 when PATH (resolved physically, symlinks included) is a root, lies under a
#   root, or a root is "/"; else 1. Comparison is literal: glob characters in roots are not
#   patterns.
mcp_roots_contains() {
	local _mcp_path="" _mcp_root="" _mcp_root_raw="" _mcp_prefix=""
	_mcp_path_physical_to _mcp_path "${1-}"
	while IFS= read -r _mcp_root_raw; do
		[ -n "${_mcp_root_raw}" ] || continue
		_mcp_path_physical_to _mcp_root "${_mcp_root_raw}"
		if [ "${_mcp_root}" = "/" ] || [ "${_mcp_path}" = "${_mcp_root}" ]; then
			return 0
		fi
		_mcp_prefix="${_mcp_root}/"
		if [ "${_mcp_path:0:${#_mcp_prefix}}" = "${_mcp_prefix}" ]; then
			return 0
		fi
	done <<EOF
${MCP_ROOTS_PATHS-}
EOF
	return 1
}

# mcp_require_path FILTER [--default-to-single-root] [--allow-empty]
#   Reads a path argument and prints it resolved physically. When empty or null:
#   --default-to-single-root uses the only root (with zero or several roots: -32602
#   "<FILTER> is required when zero or multiple roots are configured"); --allow-empty prints
#   nothing and returns 0; otherwise -32602 "<FILTER> is required". With at least one root,
#   a path outside every root fails with -32602 "<FILTER> is outside configured MCP roots".
#   With zero roots any path is accepted. Failures exit via mcp_fail_invalid_args.
mcp_require_path() {
	local _mcp_filter="${1-}" _mcp_single=false _mcp_allow_empty=false _mcp_raw="" _mcp_path="" _mcp_count=0 _mcp_x=0
	# The path is an argument value: keep it out of xtrace logs (see lib/args.sh).
	_mcp_xtrace_pause
	[ "$#" -gt 0 ] && shift
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--default-to-single-root) _mcp_single=true ;;
		--allow-empty) _mcp_allow_empty=true ;;
		--)
			shift
			break
			;;
		*) break ;;
		esac
		shift
	done
	if [ -z "${_mcp_filter}" ]; then
		_mcp_args_fail "${_mcp_x}" "mcp_require_path: argument pointer is required"
	fi
	_mcp_args_value_to _mcp_raw "${_mcp_filter}"
	[ "${_mcp_raw}" != "null" ] || _mcp_raw=""
	_mcp_count="${MCP_ROOTS_COUNT:-0}"
	_mcp_is_uint "${_mcp_count}" || _mcp_count=0
	if [ -z "${_mcp_raw}" ] && [ "${_mcp_single}" = true ]; then
		if [ "${_mcp_count}" -eq 1 ]; then
			_mcp_raw="${MCP_ROOTS_PATHS-}"
			_mcp_raw="${_mcp_raw%%$'\n'*}"
		else
			_mcp_args_fail "${_mcp_x}" "${_mcp_filter} is required when zero or multiple roots are configured"
		fi
	fi
	if [ -z "${_mcp_raw}" ]; then
		if [ "${_mcp_allow_empty}" = true ]; then
			_mcp_xtrace_restore "${_mcp_x}"
			return 0
		fi
		_mcp_args_fail "${_mcp_x}" "${_mcp_filter} is required"
	fi
	_mcp_path_physical_to _mcp_path "${_mcp_raw}"
	if [ "${_mcp_count}" -gt 0 ] && ! mcp_roots_contains "${_mcp_path}"; then
		_mcp_args_fail "${_mcp_x}" "${_mcp_filter} is outside configured MCP roots"
	fi
	printf '%s' "${_mcp_path}"
	_mcp_xtrace_restore "${_mcp_x}"
}
