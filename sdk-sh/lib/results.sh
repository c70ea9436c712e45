#!/usr/bin/env bash
# shellcheck shell=bash
# Success results. Loaded by tool-sdk.sh on first use; tool errors and protocol failures are
# in errors.sh (a tool that succeeds parses only this).

# _mcp_json_flat_strings TEXT: status 0 when TEXT is a compact object (distinct keys) or array
# of strings spelled as jq spells them (what mcp_json_obj and mcp_json_arr print): no
# whitespace between tokens, printable characters (so valid UTF-8, in any locale) and the
# escapes \" \\ \n \r \t \b \f and \u00XX for the other control characters. Such text is one
# JSON value, and jq's tojson of it gives the same bytes, so no JSON process is needed. A key
# given twice is left to jq, which keeps the last; so is text over 4 KiB (each step copies the
# rest of it). Read with patterns: Bash compiles a regex on every test, which costs more.
_mcp_json_flat_strings() {
	local _mcp_r="${1-}" _mcp_seg="" _mcp_str="" _mcp_obj="" _mcp_key=1 _mcp_seen=$'\n' _mcp_nl=$'\n'
	case "${_mcp_r}" in
	'{}' | '[]') return 0 ;;
	'{"'*) _mcp_obj=1 ;;
	'["'*) ;;
	*) return 1 ;;
	esac
	[ "${#_mcp_r}" -le 4096 ] || return 1
	_mcp_r="${_mcp_r#??}"
	while :; do
		# A string's text: _mcp_r starts after its opening quote and ends at its closing one.
		_mcp_str=""
		while :; do
			_mcp_seg="${_mcp_r%%[\"\\]*}"
			case "${_mcp_seg}" in
			*[![:print:]]*) return 1 ;;
			esac
			_mcp_r="${_mcp_r#"${_mcp_seg}"}"
			_mcp_str="${_mcp_str}${_mcp_seg}"
			case "${_mcp_r}" in
			\"*) break ;;
			\\[\"\\nrtbf]*)
				_mcp_str="${_mcp_str}${_mcp_r:0:2}"
				_mcp_r="${_mcp_r:2}"
				;;
			\\u000[01234567bef]* | \\u001[0123456789abcdef]* | \\u007f*)
				_mcp_str="${_mcp_str}${_mcp_r:0:6}"
				_mcp_r="${_mcp_r:6}"
				;;
			*) return 1 ;;
			esac
		done
		if [ -n "${_mcp_obj}" ] && [ -n "${_mcp_key}" ]; then
			# Keys are spelled one way only (no optional escapes), so equal keys are equal text.
			case "${_mcp_seen}" in
			*"${_mcp_nl}${_mcp_str}${_mcp_nl}"*) return 1 ;;
			esac
			_mcp_seen="${_mcp_seen}${_mcp_str}${_mcp_nl}"
			case "${_mcp_r}" in
			'":"'*) ;;
			*) return 1 ;;
			esac
			_mcp_key=""
		else
			case "${_mcp_obj}${_mcp_r}" in
			'1"}' | '"]') return 0 ;;
			'1","'* | '","'*) ;;
			*) return 1 ;;
			esac
			_mcp_key=1
		fi
		_mcp_r="${_mcp_r#???}"
	done
}

# mcp_result_success JSON [MAX_TEXT_BYTES]
#   Prints a CallToolResult {content:[{type:"text",text}], structuredContent:{success:true,
#   result:JSON}, isError:false}. text is the compact envelope when it fits in
#   MAX_TEXT_BYTES (default MCPBASH_MAX_TEXT_BYTES, 102400), else a summary ("Success:
#   array with N items", "Success: object with N keys", "Success: <first 100 chars>").
#   Empty, invalid or multi-value input prints an isError result instead. Returns 0.
mcp_result_success() {
	local _mcp_data="${1-}" _mcp_max="" _mcp_envelope="" _mcp_size=0 _mcp_text=""
	_mcp_text_budget_to _mcp_max "${2-}"
	if [ -z "${_mcp_data}" ]; then
		_mcp_emit_error_result '{"type":"internal_error","message":"Empty data passed to mcp_result_success"}' "Empty data passed to mcp_result_success"
		return 0
	fi
	# Data known to be valid (a flat object or array of strings, as mcp_json_obj prints) that
	# fits the text budget is wrapped in Bash: the same result, without a JSON process.
	if _mcp_json_flat_strings "${_mcp_data}"; then
		_mcp_envelope="{\"success\":true,\"result\":${_mcp_data}}"
		# A character is at most 4 bytes: most results need no byte count.
		if [ $((${#_mcp_envelope} * 4)) -le "${_mcp_max}" ] || [ "$(mcp_byte_length "${_mcp_envelope}")" -le "${_mcp_max}" ]; then
			_mcp_json_quote_to _mcp_text "${_mcp_envelope}"
			printf '{"content":[{"type":"text","text":%s}],"structuredContent":%s,"isError":false}\n' "${_mcp_text}" "${_mcp_envelope}"
			return 0
		fi
	fi
	if _mcp_json_ok; then
		# One pass: validate (a single value), wrap, summarise. Input goes through stdin.
		# shellcheck disable=SC2016 # $data, $envelope... are jq variables
		_mcp_jq_data "${_mcp_data}" -c -s --argjson max "${_mcp_max}" '
			if length != 1 then
				{content: [{type: "text", text: "Error: input must be single JSON value"}],
				 structuredContent: {success: false, error: {type: "internal_error", message: "Input contained multiple JSON values", count: length}},
				 isError: true}
			else
				.[0] as $data
				| {success: true, result: $data} as $envelope
				| ($envelope | tojson) as $text
				| {content: [{type: "text", text: (
						if ($text | utf8bytelength) <= $max then $text
						elif ($data | type) == "array" then "Success: array with \($data | length) items"
						elif ($data | type) == "object" then "Success: object with \($data | keys | length) keys"
						else "Success: \($data | tostring | .[0:100])"
						end)}],
				   structuredContent: $envelope,
				   isError: false}
			end' 2>/dev/null ||
			_mcp_emit_error_result '{"type":"internal_error","message":"Invalid JSON passed to mcp_result_success"}' "Invalid JSON passed to mcp_result_success"
		return 0
	fi
	# Minimal mode: wrap without validating.
	_mcp_envelope="{\"success\":true,\"result\":${_mcp_data}}"
	_mcp_size="$(mcp_byte_length "${_mcp_envelope}")"
	if [ "${_mcp_size}" -le "${_mcp_max}" ]; then
		_mcp_json_quote_to _mcp_text "${_mcp_envelope}"
	else
		_mcp_text='"Success: response too large for text content"'
	fi
	printf '{"content":[{"type":"text","text":%s}],"structuredContent":%s,"isError":false}\n' "${_mcp_text}" "${_mcp_envelope}"
	return 0
}
