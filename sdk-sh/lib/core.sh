#!/usr/bin/env bash
# shellcheck shell=bash
# Private building blocks most SDK functions run: warnings, the JSON-tool check and call, the
# text budget of results, pure-Bash JSON string quoting, and the xtrace pause around payloads.
# Loaded when the SDK is sourced (tool-sdk.sh); the other shared helpers live in numbers.sh,
# json-check.sh and client-request.sh, loaded on first use.

# _mcp_warn MESSAGE: one line on stderr (the server keeps it in the stderr tail).
_mcp_warn() {
	printf '%s\n' "${1-}" >&2
}

# _mcp_json_ok: status 0 when a JSON processor may be used ("full mode"), 1 in minimal mode
# (MCPBASH_MODE=minimal, MCPBASH_JSON_TOOL=none, or MCPBASH_JSON_TOOL_BIN unset/not found).
_mcp_json_ok() {
	[ "${MCPBASH_MODE-full}" != "minimal" ] || return 1
	[ "${MCPBASH_JSON_TOOL-}" != "none" ] || return 1
	[ -n "${MCPBASH_JSON_TOOL_BIN-}" ] || return 1
	command -v "${MCPBASH_JSON_TOOL_BIN}" >/dev/null 2>&1
}

# _mcp_text_budget_to VAR VALUE: sets VAR to VALUE when it is an unsigned integer, else to
# MCPBASH_MAX_TEXT_BYTES when that is one, else to 102400 (a bad variable means the default,
# as for every setting; the server warns about it). Here, not in numbers.sh: every result runs
# it, and the usual case needs no number check.
_mcp_text_budget_to() {
	local _mcp_tb_default=102400
	# The usual case, neither given: nothing to trim or check.
	if [ -z "${2-}" ] && [ -z "${MCPBASH_MAX_TEXT_BYTES-}" ]; then
		printf -v "${1}" '%s' "${_mcp_tb_default}"
		return 0
	fi
	_mcp_uint_to _mcp_tb_default "${MCPBASH_MAX_TEXT_BYTES-}" "${_mcp_tb_default}"
	_mcp_uint_to "${1}" "${2-}" "${_mcp_tb_default}"
}

# _mcp_jq ARGS...: runs the JSON processor: the server's warm built-in jq when it offers one
# (MCPBASH_JQ_SERVICE, hosts without jq or gojq), else MCPBASH_JSON_TOOL_BIN.
_mcp_jq() {
	if [ -n "${MCPBASH_JQ_SERVICE-}" ]; then
		_mcp_jq_service "$@"
	else
		"${MCPBASH_JSON_TOOL_BIN}" "$@"
	fi
}

# _mcp_jq_data TEXT ARGS...: runs the JSON processor with TEXT as its input. With the warm
# built-in jq the text travels in the request itself: one round trip, no process started.
_mcp_jq_data() {
	if [ -n "${MCPBASH_JQ_SERVICE-}" ]; then
		_mcp_jq_service_run D "$@"
	else
		local _mcp_jd_text="${1-}"
		shift
		printf '%s' "${_mcp_jd_text}" | "${MCPBASH_JSON_TOOL_BIN}" "$@"
	fi
}

# _mcp_json_quote_to VAR STRING: sets VAR to STRING as a JSON string literal (quotes
# included), escaped the way jq does it: \" \\ \b \f \n \r \t, other control characters and
# DEL as \u00XX (lower-case hex), everything else verbatim. No process is started.
#
# Whether Bash removes a backslash from the replacement of ${s//pattern/replacement} depends
# on its version, BASH_COMPAT (4.2 and older) and the patsub_replacement option, so no
# replacement is written literally: a one-backslash probe tells whether the replacements
# below need their backslashes doubled, and every replacement comes from variables.
_mcp_json_quote_to() {
	local _mcp_q_s="${2-}" _mcp_q_out="" _mcp_q_c="" _mcp_q_n=0 _mcp_q_head=""
	local _mcp_q_b="\\" _mcp_q_e="\\" _mcp_q_dq='"'
	case "${_mcp_q_s}" in
	*[\\\"[:cntrl:]]*) ;;
	*)
		printf -v "${1}" '"%s"' "${_mcp_q_s}"
		return 0
		;;
	esac
	_mcp_q_c=${_mcp_q_b//"${_mcp_q_b}"/"${_mcp_q_b}${_mcp_q_b}"}
	[ "${#_mcp_q_c}" -eq 2 ] || _mcp_q_e="${_mcp_q_b}${_mcp_q_b}"
	case "${_mcp_q_s}" in
	*\\*) _mcp_q_s=${_mcp_q_s//"${_mcp_q_b}"/"${_mcp_q_e}${_mcp_q_e}"} ;;
	esac
	case "${_mcp_q_s}" in
	*\"*) _mcp_q_s=${_mcp_q_s//"${_mcp_q_dq}"/"${_mcp_q_e}${_mcp_q_dq}"} ;;
	esac
	case "${_mcp_q_s}" in
	*[[:cntrl:]]*)
		_mcp_q_s=${_mcp_q_s//$'\n'/"${_mcp_q_e}n"}
		_mcp_q_s=${_mcp_q_s//$'\r'/"${_mcp_q_e}r"}
		_mcp_q_s=${_mcp_q_s//$'\t'/"${_mcp_q_e}t"}
		_mcp_q_s=${_mcp_q_s//$'\b'/"${_mcp_q_e}b"}
		_mcp_q_s=${_mcp_q_s//$'\f'/"${_mcp_q_e}f"}
		# Rare: other control characters, one at a time.
		while :; do
			case "${_mcp_q_s}" in
			*[[:cntrl:]]*) ;;
			*) break ;;
			esac
			_mcp_q_head="${_mcp_q_s%%[[:cntrl:]]*}"
			_mcp_q_out="${_mcp_q_out}${_mcp_q_head}"
			_mcp_q_s="${_mcp_q_s:${#_mcp_q_head}}"
			_mcp_q_c="${_mcp_q_s:0:1}"
			_mcp_q_s="${_mcp_q_s:1}"
			printf -v _mcp_q_n '%d' "'${_mcp_q_c}"
			# C1 controls (multi-byte in UTF-8 locales) stay verbatim, as jq leaves them.
			if [ "${_mcp_q_n}" -lt 32 ] || [ "${_mcp_q_n}" -eq 127 ]; then
				printf -v _mcp_q_c '\\u%04x' "${_mcp_q_n}"
			fi
			_mcp_q_out="${_mcp_q_out}${_mcp_q_c}"
		done
		;;
	esac
	printf -v "${1}" '"%s%s"' "${_mcp_q_out}" "${_mcp_q_s}"
}

# _mcp_json_quote STRING: prints STRING as a JSON string literal (no newline).
_mcp_json_quote() {
	local _mcp_quoted=""
	_mcp_json_quote_to _mcp_quoted "${1-}"
	printf '%s' "${_mcp_quoted}"
}

# _mcp_xtrace_pause: turns xtrace off and sets the caller's local _mcp_x to 1 when it was on.
# Payload readers suspend xtrace so arguments and _meta (which may hold secrets) never reach
# trace logs:  local _mcp_x=0; _mcp_xtrace_pause; ...; _mcp_xtrace_restore "${_mcp_x}"
_mcp_xtrace_pause() {
	case $- in *x*)
		_mcp_x=1
		set +x
		;;
	esac
}

# _mcp_xtrace_restore WAS_ON: turns xtrace back on when WAS_ON is 1 (see _mcp_xtrace_pause).
_mcp_xtrace_restore() {
	if [ "${1-0}" = "1" ]; then
		set -x
	fi
}
