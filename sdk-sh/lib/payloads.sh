#!/usr/bin/env bash
# shellcheck shell=bash
# The whole arguments and request _meta as JSON text, and reading them with a filter through
# the JSON tool (the payload variables and files are described in args.sh). Loaded by
# tool-sdk.sh on first use.

# _mcp_payload_source KIND: sets the caller's _mcp_file (the file the server wrote the payload
# to, when it was large) and _mcp_inline (its text otherwise, `{}` when there is none) for the
# args (KIND=args) or _meta (KIND=meta).
_mcp_payload_source() {
	local _mcp_default='{}'
	if [ "${1-}" = "meta" ]; then
		_mcp_file="${MCP_TOOL_META_FILE-}"
		_mcp_inline="${MCP_TOOL_META_JSON:-${_mcp_default}}"
	else
		_mcp_file="${MCP_TOOL_ARGS_FILE-}"
		_mcp_inline="${MCP_TOOL_ARGS_JSON:-${_mcp_default}}"
	fi
}

# _mcp_payload_print KIND: prints the args (KIND=args) or _meta (KIND=meta) JSON text,
# `{}` when there is none.
_mcp_payload_print() {
	local _mcp_x=0 _mcp_file="" _mcp_inline=""
	_mcp_xtrace_pause
	_mcp_payload_source "${1-}"
	if [ -n "${_mcp_file}" ] && [ -f "${_mcp_file}" ]; then
		cat -- "${_mcp_file}"
	else
		printf '%s' "${_mcp_inline}"
	fi
	_mcp_xtrace_restore "${_mcp_x}"
}

# _mcp_payload_query KIND FUNCTION FILTER: runs `jq -rc FILTER` over the args or _meta and
# prints the result without trailing newlines (mcp_args_get reads plain paths itself, without
# a JSON process). Minimal mode or a jq error: a warning on stderr, no output, status 1 (or
# jq's status).
_mcp_payload_query() {
	local _mcp_kind="${1-}" _mcp_fn="${2-}" _mcp_filter="${3-}" _mcp_x=0 _mcp_rc=0 _mcp_out="" _mcp_file=""
	local _mcp_inline=""
	if ! _mcp_json_ok; then
		_mcp_warn "${_mcp_fn}: JSON tooling unavailable; use ${_mcp_fn%_get}_raw instead"
		return 1
	fi
	_mcp_xtrace_pause
	_mcp_payload_source "${_mcp_kind}"
	if [ -n "${_mcp_file}" ] && [ -f "${_mcp_file}" ]; then
		_mcp_out="$(_mcp_jq -rc "${_mcp_filter}" <"${_mcp_file}" 2>/dev/null)" || _mcp_rc=$?
	else
		_mcp_out="$(_mcp_jq_data "${_mcp_inline}" -rc "${_mcp_filter}" 2>/dev/null)" || _mcp_rc=$?
	fi
	if [ "${_mcp_rc}" -ne 0 ]; then
		_mcp_warn "${_mcp_fn}: jq error (rc=${_mcp_rc}) filter=${_mcp_filter}"
		_mcp_out=""
	fi
	printf '%s' "${_mcp_out}"
	_mcp_xtrace_restore "${_mcp_x}"
	return "${_mcp_rc}"
}

# mcp_args_raw
#   Prints the arguments object as JSON text (`{}` when the call had none). Returns 0.
mcp_args_raw() {
	_mcp_payload_print args
}

# mcp_meta_raw
#   Prints the request's _meta object as JSON text (`{}` when absent). Returns 0.
mcp_meta_raw() {
	_mcp_payload_print meta
}

# mcp_meta_get FILTER
#   Like mcp_args_get, over the request's _meta.
mcp_meta_get() {
	_mcp_payload_query meta mcp_meta_get "${1-}"
}
