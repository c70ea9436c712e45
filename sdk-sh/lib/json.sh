#!/usr/bin/env bash
# shellcheck shell=bash
# JSON construction and output helpers. Loaded by tool-sdk.sh on first use.
# String escaping is pure Bash (identical output with jq, gojq or no JSON tool at all).

# mcp_json_escape STRING
#   Prints STRING as a quoted JSON string literal (no trailing newline).
#   Returns 0.
mcp_json_escape() {
	_mcp_json_quote "${1-}"
}

# mcp_json_obj KEY VALUE [KEY VALUE]...
#   Prints {"KEY":"VALUE",...}; every key and value is a JSON string.
#   An odd number of arguments is a programming error: warning on stderr and `exit 1`
#   (so misuse inside $(...) is not silently ignored).
mcp_json_obj() {
	if [ $(($# % 2)) -ne 0 ]; then
		_mcp_warn "mcp_json_obj: expected even number of arguments (key value ...), got $#"
		exit 1
	fi
	local _mcp_json="{" _mcp_sep="" _mcp_k="" _mcp_v=""
	while [ "$#" -gt 0 ]; do
		_mcp_json_quote_to _mcp_k "$1"
		_mcp_json_quote_to _mcp_v "$2"
		_mcp_json="${_mcp_json}${_mcp_sep}${_mcp_k}:${_mcp_v}"
		_mcp_sep=","
		shift 2
	done
	printf '%s}' "${_mcp_json}"
}

# mcp_json_arr [VALUE]...
#   Prints ["VALUE",...]; every value is a JSON string. Returns 0.
mcp_json_arr() {
	local _mcp_json="[" _mcp_sep="" _mcp_v=""
	while [ "$#" -gt 0 ]; do
		_mcp_json_quote_to _mcp_v "$1"
		_mcp_json="${_mcp_json}${_mcp_sep}${_mcp_v}"
		_mcp_sep=","
		shift
	done
	printf '%s]' "${_mcp_json}"
}

# mcp_is_valid_json STRING
#   Returns 0 when STRING holds exactly one JSON value (false and null included), 1 when it
#   is empty, invalid or several values. Minimal mode cannot check and always returns 0.
mcp_is_valid_json() {
	if ! _mcp_json_ok; then
		return 0
	fi
	if _mcp_jq_data "${1-}" -e -s 'length == 1' >/dev/null 2>&1; then
		return 0
	fi
	return 1
}

# mcp_byte_length STRING
#   Prints the length of STRING in bytes (not characters). Returns 0.
mcp_byte_length() {
	local _mcp_s="${1-}"
	(
		LC_ALL=C
		printf '%s' "${#_mcp_s}"
	)
}

# mcp_emit_text TEXT
#   Prints TEXT verbatim, without a newline: the tool's plain-text result. Returns 0.
mcp_emit_text() {
	printf '%s' "${1-}"
}

# mcp_emit_json JSON
#   Prints JSON compacted by the JSON tool (the tool's structured result). JSON that does
#   not parse, and everything in minimal mode, is printed verbatim. Returns 0.
mcp_emit_json() {
	local _mcp_in="${1-}" _mcp_out=""
	if _mcp_json_ok; then
		_mcp_out="$(_mcp_jq_data "${_mcp_in}" -c '.' 2>/dev/null)" || _mcp_out=""
		if [ -n "${_mcp_out}" ]; then
			printf '%s' "${_mcp_out}"
			return 0
		fi
	fi
	printf '%s' "${_mcp_in}"
}
