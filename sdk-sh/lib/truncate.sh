#!/usr/bin/env bash
# shellcheck shell=bash
# mcp_json_truncate: shrink a large JSON array so a result fits a byte budget. One jq run
# (the largest fitting prefix is computed from element sizes, not by trial serialisation).
# Loaded by tool-sdk.sh on first use.

# The jq program. Input: the slurped values. $p: the array path as a key list, or null for
# the heuristics; $path: the path as written; $max: the byte budget.
# shellcheck disable=SC2016 # $arr, $max... are jq variables
_MCPBASH_TRUNCATE_JQ='
def size: tojson | utf8bytelength;
# Largest k with base + sizes of the first k elements + (k - 1) commas <= max.
def fit($arr; $base; $max):
	reduce ($arr[] | size) as $s ({k: 0, total: $base, done: false};
		if .done then .
		else (.total + $s + (if .k > 0 then 1 else 0 end)) as $t
			| if $t <= $max then {k: (.k + 1), total: $t, done: false} else .done = true end
		end)
	| .k;
def error_result($type; $message): {result: null, truncated: false, error: {type: $type, message: $message}};
def at_path($doc; $p; $path; $max):
	(try ($doc | getpath($p)) catch "\u0000invalid") as $arr
	| if $arr == "\u0000invalid" then error_result("invalid_path"; "Invalid path or malformed JSON: " + $path)
	elif $arr == null then error_result("path_not_found"; "Path not found: " + $path)
	elif ($arr | type) != "array" then error_result("invalid_array_path"; "Path is not an array: " + $path)
	else ($arr | length) as $total
		| if $total == 0 then {result: $doc, truncated: false, kept: 0, total: 0}
		elif ($doc | size) <= $max then {result: $doc, truncated: false, kept: $total, total: $total}
		else ($doc | setpath($p; []) | size) as $base
			| if $base > $max then error_result("output_too_large"; "Response too large (\($base) bytes) even with empty array at \($path)")
			else fit($arr; $base; $max) as $k
				| {result: ($doc | setpath($p; $arr[:$k])), truncated: true, kept: $k, total: $total}
			end
		end
	end;
if length == 0 then {_mcp_invalid: "Empty input: expected exactly one JSON value"}
elif length > 1 then {_mcp_invalid: "Multiple JSON values found (\(length)): expected exactly one"}
else .[0] as $doc
	| if $p != null then at_path($doc; $p; $path; $max)
	elif ($doc | size) <= $max then {result: $doc, truncated: false}
	elif ($doc | type) == "array" then
		($doc | length) as $total
		| if ($doc[0:1] | size) > $max then {result: [], truncated: true, kept: 0, total: $total, _warning: "individual items exceed max_bytes"}
		else fit($doc; 2; $max) as $k | {result: $doc[:$k], truncated: true, kept: $k, total: $total}
		end
	elif ($doc | type) == "object" and (($doc.results | type) == "array") then at_path($doc; ["results"]; ".results"; $max)
	else error_result("output_too_large"; "Response too large (\($doc | size) bytes) and cannot be safely truncated (not an array)")
	end
end'

# _mcp_truncate_invalid JSON MESSAGE: prints the invalid_json result (with the input as raw).
_mcp_truncate_invalid() {
	local _mcp_raw="" _mcp_msg=""
	_mcp_json_quote_to _mcp_raw "${1-}"
	_mcp_json_quote_to _mcp_msg "${2-}"
	printf '{"result":null,"truncated":false,"error":{"type":"invalid_json","message":%s,"raw":%s}}\n' "${_mcp_msg}" "${_mcp_raw}"
}

# _mcp_path_keys_to VAR .a.b: sets VAR to ["a","b"] (keys already validated as identifiers).
_mcp_path_keys_to() {
	local _mcp_rest="${2#.}" _mcp_pk_keys="" _mcp_sep=""
	while :; do
		_mcp_pk_keys="${_mcp_pk_keys}${_mcp_sep}\"${_mcp_rest%%.*}\""
		_mcp_sep=","
		case "${_mcp_rest}" in
		*.*) _mcp_rest="${_mcp_rest#*.}" ;;
		*) break ;;
		esac
	done
	printf -v "${1}" '[%s]' "${_mcp_pk_keys}"
}

# mcp_json_truncate JSON [MAX_BYTES] [--array-path .key[.key...]]
#   Prints {result, truncated, kept?, total?} where result is JSON with its array cut to the
#   longest prefix whose compact form fits MAX_BYTES (default MCPBASH_MAX_TEXT_BYTES, 102400).
#   The array: the one at --array-path; else a top-level array; else an object's .results.
#   Problems are reported in the output, never by status: {result:null, truncated:false,
#   error:{type: invalid_json | invalid_path_syntax | path_not_found | invalid_array_path |
#   invalid_path | output_too_large, message}}. Minimal mode returns the input untruncated
#   (blank input as null) with a _warning. Returns 0.
mcp_json_truncate() {
	local _mcp_json="" _mcp_max="" _mcp_path="" _mcp_pos=0 _mcp_keys="null" _mcp_out="" _mcp_q=""
	local _mcp_path_re='^\.[a-zA-Z_][a-zA-Z0-9_]*(\.[a-zA-Z_][a-zA-Z0-9_]*)*$'
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--array-path)
			case "${2-}" in
			'' | --*)
				printf '%s\n' '{"result":null,"truncated":false,"error":{"type":"invalid_path_syntax","message":"--array-path requires a value"}}'
				return 0
				;;
			esac
			_mcp_path="$2"
			shift 2
			continue
			;;
		esac
		case "${_mcp_pos}" in
		0) _mcp_json="$1" ;;
		1) _mcp_max="$1" ;;
		esac
		_mcp_pos=$((_mcp_pos + 1))
		shift
	done
	_mcp_text_budget_to _mcp_max "${_mcp_max}"
	if ! _mcp_json_ok; then
		# Blank input has no JSON text to pass through: it becomes null.
		case "${_mcp_json}" in
		*[![:space:]]*) ;;
		*) _mcp_json=null ;;
		esac
		printf '{"result":%s,"truncated":false,"_warning":"truncation unavailable in minimal mode"}\n' "${_mcp_json}"
		return 0
	fi
	if [ -n "${_mcp_path}" ]; then
		if ! [[ "${_mcp_path}" =~ ${_mcp_path_re} ]]; then
			_mcp_json_quote_to _mcp_q "Invalid path syntax: ${_mcp_path} (must be .key or .key.nested format)"
			printf '{"result":null,"truncated":false,"error":{"type":"invalid_path_syntax","message":%s}}\n' "${_mcp_q}"
			return 0
		fi
		_mcp_path_keys_to _mcp_keys "${_mcp_path}"
	fi
	_mcp_out="$(_mcp_jq_data "${_mcp_json}" -c -s --argjson max "${_mcp_max}" --argjson p "${_mcp_keys}" \
		--arg path "${_mcp_path}" "${_MCPBASH_TRUNCATE_JQ}" 2>/dev/null)" || _mcp_out=""
	case "${_mcp_out}" in
	'')
		_mcp_truncate_invalid "${_mcp_json}" "Invalid JSON: parse error"
		;;
	*'"_mcp_invalid":'*)
		_mcp_q="${_mcp_out#*\"_mcp_invalid\":\"}"
		_mcp_truncate_invalid "${_mcp_json}" "${_mcp_q%\"\}}"
		;;
	*)
		printf '%s\n' "${_mcp_out}"
		;;
	esac
	return 0
}
