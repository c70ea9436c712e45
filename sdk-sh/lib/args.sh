#!/usr/bin/env bash
# shellcheck shell=bash
# Reading the call's arguments: plain paths without a JSON process (other filters, the whole
# payloads and the request _meta are payloads.sh's). Loaded when the SDK is sourced: nearly
# every tool reads its arguments.
#
# The server passes the arguments object as MCP_TOOL_ARGS_JSON, or, when large, in the file
# MCP_TOOL_ARGS_FILE (the file wins); the request _meta likewise as MCP_TOOL_META_JSON /
# MCP_TOOL_META_FILE. xtrace is suspended while payloads are touched: they may hold secrets.

# _mcp_args_flat_to VAR FILTER: sets VAR to what `jq -rc FILTER` prints over the arguments,
# trailing newlines dropped, when FILTER is a plain path (`.a.b`, optionally `// LITERAL`)
# that MCP_TOOL_ARGS_FLAT answers (D298); status 1 leaves the filter to jq.
_mcp_args_flat_to() {
	local _mcp_fl="${MCP_TOOL_ARGS_FLAT-}" _mcp_f="${2-}" _mcp_path="" _mcp_def="" _mcp_rec="" _mcp_kind=""
	local _mcp_text="" _mcp_up="" _mcp_nl=$'\n' _mcp_tab=$'\t' _mcp_p1='%0A' _mcp_p2='%09' _mcp_p3='%25' _mcp_pct='%'
	# Letters spelled out: a range such as a-z follows the locale's collation in older Bash.
	local _mcp_w=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_ _mcp_d=0123456789
	# jq's whitespace, no more ([:space:] also takes \v, \f and, in UTF-8, other spaces).
	local _mcp_ws=$' \t\n\r'
	# The form describes MCP_TOOL_ARGS_JSON (its first line) as the server set it, not a
	# value the tool put there since.
	[ -n "${_mcp_fl}" ] && [ -z "${MCP_TOOL_ARGS_FILE-}" ] || return 1
	[ "${_mcp_fl%%"${_mcp_nl}"*}" = "${MCP_TOOL_ARGS_JSON-}" ] || return 1
	# The filter, read with patterns (a regex costs more than the read): a path of name keys
	# (.a.b), then nothing or `//` and a literal (a string without escapes, a whole number of
	# at most 15 digits, true, false, null), with any of jq's whitespace around them.
	_mcp_f="${_mcp_f#"${_mcp_f%%[!"${_mcp_ws}"]*}"}"
	_mcp_f="${_mcp_f%"${_mcp_f##*[!"${_mcp_ws}"]}"}"
	_mcp_path="${_mcp_f%%[!"${_mcp_w}${_mcp_d}".]*}"
	case "${_mcp_path}" in
	.["${_mcp_w}"]*) ;;
	*) return 1 ;;
	esac
	case "${_mcp_path}" in
	*..* | *. | *.["${_mcp_d}"]*) return 1 ;;
	esac
	_mcp_f="${_mcp_f:${#_mcp_path}}"
	if [ -n "${_mcp_f}" ]; then
		_mcp_f="${_mcp_f#"${_mcp_f%%[!"${_mcp_ws}"]*}"}"
		case "${_mcp_f}" in
		//*) _mcp_def="${_mcp_f#//}" ;;
		*) return 1 ;;
		esac
		_mcp_def="${_mcp_def#"${_mcp_def%%[!"${_mcp_ws}"]*}"}"
		case "${_mcp_def}" in
		0 | true | false | null) ;;
		'"'*'"')
			_mcp_up="${_mcp_def:1:${#_mcp_def}-2}"
			case "${_mcp_up}" in
			*[\"\\[:cntrl:]]*) return 1 ;;
			esac
			;;
		[123456789]* | -[123456789]*)
			_mcp_up="${_mcp_def#-}"
			case "${_mcp_up}" in
			*[!"${_mcp_d}"]* | ????????????????*) return 1 ;;
			esac
			;;
		*) return 1 ;;
		esac
	fi
	case "${_mcp_fl}" in
	*"${_mcp_nl}${_mcp_path}${_mcp_tab}"*)
		_mcp_rec="${_mcp_fl#*"${_mcp_nl}${_mcp_path}${_mcp_tab}"}"
		_mcp_rec="${_mcp_rec%%"${_mcp_nl}"*}"
		_mcp_kind="${_mcp_rec%%"${_mcp_tab}"*}"
		_mcp_text="${_mcp_rec#*"${_mcp_tab}"}"
		;;
	*)
		# Not recorded: a missing key (null) when the nearest recorded parent is an object.
		_mcp_up="${_mcp_path%.*}"
		while [ -n "${_mcp_up}" ]; do
			case "${_mcp_fl}" in
			*"${_mcp_nl}${_mcp_up}${_mcp_tab}o${_mcp_tab}"*) break ;;
			*"${_mcp_nl}${_mcp_up}${_mcp_tab}"*) return 1 ;;
			esac
			_mcp_up="${_mcp_up%.*}"
		done
		_mcp_kind=z
		_mcp_text=null
		;;
	esac
	case "${_mcp_kind}" in
	s)
		_mcp_text="${_mcp_text//"${_mcp_p1}"/${_mcp_nl}}"
		_mcp_text="${_mcp_text//"${_mcp_p2}"/${_mcp_tab}}"
		_mcp_text="${_mcp_text//"${_mcp_p3}"/${_mcp_pct}}"
		;;
	v | z) ;;
	*) return 1 ;;
	esac
	# `//` replaces null and false by the literal (a string literal prints raw).
	if [ -n "${_mcp_def}" ] && { [ "${_mcp_kind}" = z ] || [ "${_mcp_kind}${_mcp_text}" = vfalse ]; }; then
		case "${_mcp_def}" in
		'"'*) _mcp_text="${_mcp_def:1:${#_mcp_def}-2}" ;;
		*) _mcp_text="${_mcp_def}" ;;
		esac
	fi
	while :; do
		case "${_mcp_text}" in
		*"${_mcp_nl}") _mcp_text="${_mcp_text%"${_mcp_nl}"}" ;;
		*) break ;;
		esac
	done
	printf -v "${1}" '%s' "${_mcp_text}"
}

# _mcp_args_value_to VAR FILTER: sets VAR to what mcp_args_get FILTER prints, "" when it
# fails; without a subshell when MCP_TOOL_ARGS_FLAT answers (as mcp_args_get, only when a JSON
# tool may be used: minimal mode reads no arguments).
_mcp_args_value_to() {
	local _mcp_av=""
	if _mcp_json_ok && _mcp_args_flat_to "${1}" "${2-}"; then
		return 0
	fi
	_mcp_av="$(mcp_args_get "${2-}" 2>/dev/null)" || _mcp_av=""
	printf -v "${1}" '%s' "${_mcp_av}"
}

# mcp_args_get FILTER
#   Prints `jq -rc FILTER` applied to the arguments: strings raw, other values compact JSON,
#   `null` for a missing key, several results one per line.
#   Returns 0; jq's status on a jq error (warning on stderr, no output); 1 in minimal mode.
mcp_args_get() {
	local _mcp_x=0 _mcp_out=""
	# A plain path is read here (D298); any other filter, and minimal mode's warning, in
	# payloads.sh.
	if _mcp_json_ok; then
		_mcp_xtrace_pause
		if _mcp_args_flat_to _mcp_out "${1-}"; then
			printf '%s' "${_mcp_out}"
			_mcp_xtrace_restore "${_mcp_x}"
			return 0
		fi
		_mcp_xtrace_restore "${_mcp_x}"
	fi
	_mcp_payload_query args mcp_args_get "${1-}"
}
