#!/usr/bin/env bash
# shellcheck shell=bash
# Private building blocks shared by the SDK files: warnings, the JSON-tool check, pure-Bash
# JSON string quoting and number checks. Sourced by tool-sdk.sh.

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

# _mcp_is_uint VALUE: status 0 when VALUE is one or more decimal digits.
_mcp_is_uint() {
	case "${1-}" in
	'' | *[!0-9]*) return 1 ;;
	esac
	return 0
}

# _mcp_is_int VALUE: status 0 for an optional minus sign followed by digits (^-?[0-9]+$).
_mcp_is_int() {
	_mcp_is_uint "${1#-}"
}

# _mcp_int_fits INT: 0 when the integer INT fits Bash arithmetic (64-bit signed), else 1.
# Compared as text: arithmetic on a longer number would wrap around silently.
_mcp_int_fits() {
	local _mcp_if_d="${1#-}" _mcp_if_limit=9223372036854775807
	[ "${1-}" != "${_mcp_if_d}" ] && _mcp_if_limit=9223372036854775808
	while [ "${#_mcp_if_d}" -gt 1 ] && [ "${_mcp_if_d#0}" != "${_mcp_if_d}" ]; do
		_mcp_if_d="${_mcp_if_d#0}"
	done
	[ "${#_mcp_if_d}" -lt 19 ] && return 0
	[ "${#_mcp_if_d}" -gt 19 ] && return 1
	# Same length: a string comparison orders digit strings numerically (-gt would overflow).
	# shellcheck disable=SC2071
	! [[ "${_mcp_if_d}" > "${_mcp_if_limit}" ]]
}

# _mcp_uint_to VAR VALUE DEFAULT: sets VAR to VALUE (surrounding whitespace trimmed) when it
# is an unsigned integer, else to DEFAULT (itself 0 when not an unsigned integer). Leading
# zeros are dropped so the result is also a valid JSON number.
_mcp_uint_to() {
	local _mcp_u_v="${2-}" _mcp_u_d="${3-0}"
	_mcp_u_v="${_mcp_u_v#"${_mcp_u_v%%[![:space:]]*}"}"
	_mcp_u_v="${_mcp_u_v%"${_mcp_u_v##*[![:space:]]}"}"
	_mcp_u_d="${_mcp_u_d#"${_mcp_u_d%%[![:space:]]*}"}"
	_mcp_u_d="${_mcp_u_d%"${_mcp_u_d##*[![:space:]]}"}"
	_mcp_is_uint "${_mcp_u_d}" || _mcp_u_d=0
	_mcp_is_uint "${_mcp_u_v}" || _mcp_u_v="${_mcp_u_d}"
	_mcp_strip_zeros_to "${1}" "${_mcp_u_v}"
}

# _mcp_text_budget_to VAR VALUE: sets VAR to VALUE when it is an unsigned integer, else to
# MCPBASH_MAX_TEXT_BYTES when that is one, else to 102400 (a bad variable means the default,
# as for every setting; the server warns about it).
_mcp_text_budget_to() {
	local _mcp_tb_default=""
	_mcp_uint_to _mcp_tb_default "${MCPBASH_MAX_TEXT_BYTES-}" 102400
	_mcp_uint_to "${1}" "${2-}" "${_mcp_tb_default}"
}

# _mcp_strip_zeros_to VAR DIGITS: sets VAR to DIGITS without leading zeros ("0" stays).
_mcp_strip_zeros_to() {
	local _mcp_z_v="${2-0}"
	while :; do
		case "${_mcp_z_v}" in
		0?*) _mcp_z_v="${_mcp_z_v#0}" ;;
		*) break ;;
		esac
	done
	printf -v "${1}" '%s' "${_mcp_z_v}"
}

# _mcp_is_json_number VALUE: status 0 when VALUE is a JSON number literal.
_mcp_is_json_number() {
	local _mcp_n_re='^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$'
	[[ "${1-}" =~ ${_mcp_n_re} ]]
}

# _mcp_json_check_tokens TEXT: feeds the JSON tokens of TEXT (a stretch between strings, or
# a lone " standing for a string) to the state machine of _mcp_json_check_bash, whose
# _mcp_want and _mcp_stack it updates. Status 1 at the first token out of place.
_mcp_json_check_tokens() {
	local _mcp_sk="${1-}" _mcp_tok="" _mcp_top=""
	local _mcp_num_re='^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$'
	local -a _mcp_toks=()
	_mcp_sk=${_mcp_sk//$'\r'/" "}
	_mcp_sk=${_mcp_sk//"{"/" { "}
	_mcp_sk=${_mcp_sk//"}"/" } "}
	_mcp_sk=${_mcp_sk//"["/" [ "}
	_mcp_sk=${_mcp_sk//"]"/" ] "}
	_mcp_sk=${_mcp_sk//","/" , "}
	_mcp_sk=${_mcp_sk//":"/" : "}
	IFS=$' \t\n' read -r -d '' -a _mcp_toks <<<"${_mcp_sk}" || true
	for _mcp_tok in ${_mcp_toks[@]+"${_mcp_toks[@]}"}; do
		_mcp_top="${_mcp_stack#"${_mcp_stack%?}"}"
		case "${_mcp_want}:${_mcp_tok}" in
		next:,)
			case "${_mcp_top}" in
			"{") _mcp_want=key ;;
			"[") _mcp_want=value ;;
			*) return 1 ;;
			esac
			;;
		next:"]" | value_or_close:"]")
			[ "${_mcp_top}" = "[" ] || return 1
			_mcp_stack="${_mcp_stack%?}"
			_mcp_want=next
			;;
		next:"}" | key_or_close:"}")
			[ "${_mcp_top}" = "{" ] || return 1
			_mcp_stack="${_mcp_stack%?}"
			_mcp_want=next
			;;
		colon::) _mcp_want=value ;;
		'key:"' | 'key_or_close:"') _mcp_want='colon' ;;
		value:"{" | value_or_close:"{")
			_mcp_stack="${_mcp_stack}{"
			_mcp_want=key_or_close
			;;
		value:"[" | value_or_close:"[")
			_mcp_stack="${_mcp_stack}["
			_mcp_want=value_or_close
			;;
		'value:"' | 'value_or_close:"' | value:true | value_or_close:true | value:false | value_or_close:false | value:null | value_or_close:null)
			_mcp_want=next
			;;
		value:* | value_or_close:*)
			[[ "${_mcp_tok}" =~ ${_mcp_num_re} ]] || return 1
			_mcp_want=next
			;;
		*) return 1 ;;
		esac
	done
	return 0
}

# _mcp_json_flat_strings TEXT: status 0 when TEXT is a compact object or array of strings
# spelled as jq spells them (what mcp_json_obj and mcp_json_arr print): no whitespace between
# tokens, escapes only \" \\ \n \r \t \b \f and \u00XX for control characters. Such text
# is one JSON value, and jq's tojson of it gives the same bytes, so no JSON process is needed.
_mcp_json_flat_strings() {
	local _mcp_fs_s='"([^"\\[:cntrl:]]|\\["\\nrtbf]|\\u00(0[0-7]|0b|0e|0f|1[0-9a-f]|7f))*"'
	local _mcp_fs_obj="^[{](${_mcp_fs_s}:${_mcp_fs_s}(,${_mcp_fs_s}:${_mcp_fs_s})*)?[}]$"
	local _mcp_fs_arr="^\\[(${_mcp_fs_s}(,${_mcp_fs_s})*)?]$"
	case "${1-}" in
	'{'*'}') [[ "${1}" =~ ${_mcp_fs_obj} ]] ;;
	'['*']') [[ "${1}" =~ ${_mcp_fs_arr} ]] ;;
	*) return 1 ;;
	esac
}

# _mcp_json_check_bash TEXT: status 0 when TEXT is exactly one JSON value (surrounding
# whitespace allowed), checked in pure Bash for minimal mode, where there is no JSON
# processor; 1 otherwise. Strings may not hold raw control characters (DEL included).
# Linear time: TEXT is split at its quotes; each string is checked with one regex and the
# stretches between strings are tokenised for a small state machine.
_mcp_json_check_bash() {
	local _mcp_part="" _mcp_acc="" _mcp_bs="" _mcp_in_str=false _mcp_i=0 _mcp_n=0 _mcp_dq='"'
	local _mcp_want=value _mcp_stack=""
	local _mcp_chars_re='^([^"\\[:cntrl:]]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*$'
	local -a _mcp_parts=()
	# The here-string adds a newline, so the last part always lies outside any string.
	IFS='"' read -r -d '' -a _mcp_parts <<<"${1-}" || true
	_mcp_n="${#_mcp_parts[@]}"
	while [ "${_mcp_i}" -lt "${_mcp_n}" ]; do
		_mcp_part="${_mcp_parts[${_mcp_i}]}"
		_mcp_i=$((_mcp_i + 1))
		if [ "${_mcp_in_str}" = false ]; then
			_mcp_json_check_tokens "${_mcp_part}" || return 1
			_mcp_in_str=true
			_mcp_acc=""
			continue
		fi
		# Inside a string, which must end at a quote before the text does.
		[ "${_mcp_i}" -lt "${_mcp_n}" ] || return 1
		_mcp_acc="${_mcp_acc}${_mcp_part}"
		_mcp_bs="${_mcp_acc##*[!\\]}"
		if [ $((${#_mcp_bs} % 2)) -eq 1 ]; then
			# An odd run of backslashes: the quote is escaped, the string goes on.
			_mcp_acc="${_mcp_acc}${_mcp_dq}"
			continue
		fi
		[[ "${_mcp_acc}" =~ ${_mcp_chars_re} ]] || return 1
		_mcp_json_check_tokens "${_mcp_dq}" || return 1
		_mcp_in_str=false
	done
	[ "${_mcp_want}" = next ] && [ -z "${_mcp_stack}" ]
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

# _mcp_framework_version: the mcp-bash version for user agents.
_mcp_framework_version() {
	local _mcp_ver="${MCPBASH_FRAMEWORK_VERSION-}"
	if [ -z "${_mcp_ver}" ] && [ -n "${MCPBASH_HOME-}" ] && [ -r "${MCPBASH_HOME}/VERSION" ]; then
		IFS= read -r _mcp_ver <"${MCPBASH_HOME}/VERSION" || true
	fi
	printf '%s' "${_mcp_ver:-unknown}"
}

# _mcp_client_request FUNCTION SUPPORTED REQUEST_FILE RESPONSE_FILE REQUEST_JSON TIMEOUT
#     DEFAULT_TIMEOUT UNSUPPORTED UNCONFIGURED TIMED_OUT WHAT
#   The handshake of a request to the client (elicitation, sampling): writes REQUEST_JSON to
#   REQUEST_FILE atomically and polls for the server's RESPONSE_FILE (TIMEOUT seconds, else
#   DEFAULT_TIMEOUT, else 30). Prints the answer {"action","content"}; when there is none
#   (SUPPORTED is not 1, the files are not set, cancellation, the timeout) prints its own
#   decline, error or cancel answer, warns with the message given, and returns 1.
_mcp_client_request() {
	local _mcp_fn="${1-}" _mcp_request_file="${3-}" _mcp_response_file="${4-}" _mcp_request="${5-}"
	local _mcp_timeout="${6-}" _mcp_tmp="" _mcp_i=0 _mcp_limit=0 _mcp_answer=""
	if [ "${2-}" != "1" ]; then
		_mcp_warn "${_mcp_fn}: ${8-}"
		printf '{"action":"decline","content":null}'
		return 1
	fi
	if [ -z "${_mcp_request_file}" ] || [ -z "${_mcp_response_file}" ]; then
		_mcp_warn "${_mcp_fn}: ${9-}"
		printf '{"action":"error","content":null}'
		return 1
	fi
	_mcp_is_uint "${_mcp_timeout}" || _mcp_timeout="${7-}"
	_mcp_is_uint "${_mcp_timeout}" || _mcp_timeout=30
	_mcp_limit=$((10#${_mcp_timeout} * 10))
	rm -f -- "${_mcp_response_file}"
	_mcp_tmp="${_mcp_request_file}.tmp.$$.${RANDOM}"
	if ! printf '%s' "${_mcp_request}" >"${_mcp_tmp}" 2>/dev/null || ! mv -f -- "${_mcp_tmp}" "${_mcp_request_file}"; then
		rm -f -- "${_mcp_tmp}"
		_mcp_warn "${_mcp_fn}: cannot write the ${11-request}"
		printf '{"action":"error","content":null}'
		return 1
	fi
	while [ ! -f "${_mcp_response_file}" ]; do
		if mcp_is_cancelled; then
			rm -f -- "${_mcp_request_file}"
			printf '{"action":"cancel","content":null}'
			return 1
		fi
		if [ "${_mcp_i}" -ge "${_mcp_limit}" ]; then
			rm -f -- "${_mcp_request_file}"
			_mcp_warn "${_mcp_fn}: ${10-}"
			printf '{"action":"error","content":null}'
			return 1
		fi
		sleep 0.1
		_mcp_i=$((_mcp_i + 1))
	done
	_mcp_answer="$(cat -- "${_mcp_response_file}")" || _mcp_answer=""
	rm -f -- "${_mcp_response_file}"
	[ -n "${_mcp_answer}" ] || _mcp_answer='{"action":"error","content":null}'
	printf '%s' "${_mcp_answer}"
}
