#!/usr/bin/env bash
# shellcheck shell=bash
# Private number checks in pure Bash: unsigned and signed integers, 64-bit fit, settings that
# must be unsigned integers, JSON number literals. Loaded on first use (tool-sdk.sh).

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
