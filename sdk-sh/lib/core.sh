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

# _mcp_jq ARGS...: runs the JSON processor.
_mcp_jq() {
	"${MCPBASH_JSON_TOOL_BIN}" "$@"
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

# _mcp_xtrace_restore WAS_ON: turns xtrace back on when WAS_ON is 1. Payload readers suspend
# xtrace so arguments and _meta (which may hold secrets) never reach trace logs:
#   local _mcp_x=0; case $- in *x*) _mcp_x=1; set +x ;; esac; ...; _mcp_xtrace_restore "${_mcp_x}"
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
