#!/usr/bin/env bash
# shellcheck shell=bash
# Arguments that must be there, be booleans or be integers: each failure ends the call with
# -32602 (mcp_fail_invalid_args). Loaded by tool-sdk.sh on first use.

# _mcp_args_fail WAS_ON MESSAGE: turns xtrace back on when WAS_ON is 1 (the caller's setting,
# see _mcp_xtrace_restore), then mcp_fail_invalid_args MESSAGE (exits).
_mcp_args_fail() {
	_mcp_xtrace_restore "${1-0}"
	mcp_fail_invalid_args "${2-}"
}

# mcp_args_require FILTER [MESSAGE]
#   Prints the value; when it is missing, empty or null, fails the call with -32602 and
#   MESSAGE (default "<FILTER> is required") via mcp_fail_invalid_args (exits).
mcp_args_require() {
	local _mcp_filter="${1-}" _mcp_message="${2-}" _mcp_raw="" _mcp_x=0
	_mcp_xtrace_pause
	_mcp_args_value_to _mcp_raw "${_mcp_filter}"
	if [ -z "${_mcp_raw}" ] || [ "${_mcp_raw}" = "null" ]; then
		_mcp_args_fail "${_mcp_x}" "${_mcp_message:-${_mcp_filter} is required}"
	fi
	printf '%s' "${_mcp_raw}"
	_mcp_xtrace_restore "${_mcp_x}"
}

# mcp_args_bool FILTER [--default true|false|1|0]
#   Prints `true` when the value is true or 1, otherwise `false`. A missing or null value
#   takes the default; without one the call fails with -32602 "<FILTER> is required"
#   ("<FILTER> requires JSON tooling or a default" in minimal mode).
mcp_args_bool() {
	local _mcp_filter="${1-}" _mcp_has_default=false _mcp_default="false" _mcp_raw="" _mcp_x=0
	_mcp_xtrace_pause
	[ "$#" -gt 0 ] && shift
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--default)
			_mcp_has_default=true
			_mcp_default="${2-}"
			[ "$#" -gt 1 ] && shift
			;;
		*) break ;;
		esac
		shift
	done
	_mcp_args_value_to _mcp_raw "${_mcp_filter}"
	if [ -z "${_mcp_raw}" ] || [ "${_mcp_raw}" = "null" ]; then
		if [ "${_mcp_has_default}" = true ]; then
			_mcp_raw="${_mcp_default}"
		elif _mcp_json_ok; then
			_mcp_args_fail "${_mcp_x}" "${_mcp_filter} is required"
		else
			_mcp_args_fail "${_mcp_x}" "${_mcp_filter} requires JSON tooling or a default"
		fi
	fi
	case "${_mcp_raw}" in
	true | 1) printf 'true' ;;
	*) printf 'false' ;;
	esac
	_mcp_xtrace_restore "${_mcp_x}"
}

# mcp_args_int FILTER [--default N] [--min N] [--max N]
#   Prints the value, which must match ^-?[0-9]+$. Failures end the call with -32602:
#   "<FILTER> must be an integer", "<FILTER> must be >= MIN", "<FILTER> must be <= MAX",
#   "<FILTER> is required" (minimal mode: "<FILTER> requires JSON tooling or a default"),
#   and for a misused helper "mcp_args_int: --min must be an integer" (or --max),
#   "mcp_args_int: --min cannot exceed --max".
mcp_args_int() {
	local _mcp_filter="${1-}" _mcp_raw="" _mcp_x=0
	local _mcp_has_default=false _mcp_default="" _mcp_has_min=false _mcp_min="" _mcp_has_max=false _mcp_max=""
	_mcp_xtrace_pause
	[ "$#" -gt 0 ] && shift
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--default)
			_mcp_has_default=true
			_mcp_default="${2-}"
			;;
		--min)
			_mcp_has_min=true
			_mcp_min="${2-}"
			;;
		--max)
			_mcp_has_max=true
			_mcp_max="${2-}"
			;;
		*) break ;;
		esac
		[ "$#" -gt 1 ] && shift
		shift
	done
	if [ "${_mcp_has_min}" = true ] && ! _mcp_is_int "${_mcp_min}"; then
		_mcp_args_fail "${_mcp_x}" "mcp_args_int: --min must be an integer"
	fi
	if [ "${_mcp_has_max}" = true ] && ! _mcp_is_int "${_mcp_max}"; then
		_mcp_args_fail "${_mcp_x}" "mcp_args_int: --max must be an integer"
	fi
	if [ "${_mcp_has_min}" = true ] && [ "${_mcp_has_max}" = true ]; then
		if ! [ "${_mcp_min}" -le "${_mcp_max}" ] 2>/dev/null; then
			_mcp_args_fail "${_mcp_x}" "mcp_args_int: --min cannot exceed --max"
		fi
	fi
	_mcp_args_value_to _mcp_raw "${_mcp_filter}"
	if [ -z "${_mcp_raw}" ] || [ "${_mcp_raw}" = "null" ]; then
		if [ "${_mcp_has_default}" = true ]; then
			_mcp_raw="${_mcp_default}"
		elif _mcp_json_ok; then
			_mcp_args_fail "${_mcp_x}" "${_mcp_filter} is required"
		else
			_mcp_args_fail "${_mcp_x}" "${_mcp_filter} requires JSON tooling or a default"
		fi
	fi
	if ! _mcp_is_int "${_mcp_raw}"; then
		_mcp_args_fail "${_mcp_x}" "${_mcp_filter} must be an integer"
	fi
	if ! _mcp_int_fits "${_mcp_raw}"; then
		_mcp_args_fail "${_mcp_x}" "${_mcp_filter} is out of range (a 64-bit integer)"
	fi
	if [ "${_mcp_has_min}" = true ] && ! [ "${_mcp_raw}" -ge "${_mcp_min}" ] 2>/dev/null; then
		_mcp_args_fail "${_mcp_x}" "${_mcp_filter} must be >= ${_mcp_min}"
	fi
	if [ "${_mcp_has_max}" = true ] && ! [ "${_mcp_raw}" -le "${_mcp_max}" ] 2>/dev/null; then
		_mcp_args_fail "${_mcp_x}" "${_mcp_filter} must be <= ${_mcp_max}"
	fi
	printf '%s' "${_mcp_raw}"
	_mcp_xtrace_restore "${_mcp_x}"
}
