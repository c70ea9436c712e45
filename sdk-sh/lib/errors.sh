#!/usr/bin/env bash
# shellcheck shell=bash
# Errors. Loaded by tool-sdk.sh on first use. Two kinds (docs/TOOL-CONTRACT.md):
#   - mcp_fail*: a protocol error. Writes MCP_TOOL_ERROR_FILE and exits 1; the client gets a
#     JSON-RPC error with that code.
#   - mcp_result_error / mcp_error: a tool execution error. Prints a CallToolResult with
#     isError:true and returns 0; the model sees the message and can correct itself.
# And the error message of a failed CLI run (mcp_extract_cli_error).

# mcp_fail CODE [MESSAGE] [DATA_JSON]
#   Ends the call with a JSON-RPC error: writes {"code","message","data"} to
#   MCP_TOOL_ERROR_FILE (when set) and stdout, MESSAGE to stderr, then `exit 1`.
#   CODE that is not an integer becomes -32603; MESSAGE defaults to "Tool failed";
#   DATA_JSON that does not parse becomes null (minimal mode inserts it unchecked).
mcp_fail() {
	local _mcp_code="${1-}" _mcp_message="${2-}" _mcp_data_in="${3-}" _mcp_data="null" _mcp_msg_json="" _mcp_line=""
	_mcp_code="${_mcp_code#+}"
	if _mcp_is_int "${_mcp_code}"; then
		case "${_mcp_code}" in
		-*) _mcp_strip_zeros_to _mcp_code "${_mcp_code#-}" && _mcp_code="-${_mcp_code}" ;;
		*) _mcp_strip_zeros_to _mcp_code "${_mcp_code}" ;;
		esac
		[ "${_mcp_code}" = "-0" ] && _mcp_code=0
	else
		_mcp_code=-32603
	fi
	[ -n "${_mcp_message}" ] || _mcp_message="Tool failed"
	if [ -n "${_mcp_data_in}" ]; then
		if _mcp_json_ok; then
			_mcp_data="$(_mcp_jq_data "${_mcp_data_in}" -c -s 'if length == 1 then .[0] else null end' 2>/dev/null)" || _mcp_data=""
			[ -n "${_mcp_data}" ] || _mcp_data=null
		else
			_mcp_data="${_mcp_data_in}"
		fi
	fi
	_mcp_json_quote_to _mcp_msg_json "${_mcp_message}"
	_mcp_line="{\"code\":${_mcp_code},\"message\":${_mcp_msg_json},\"data\":${_mcp_data}}"
	if [ -n "${MCP_TOOL_ERROR_FILE-}" ]; then
		printf '%s\n' "${_mcp_line}" >"${MCP_TOOL_ERROR_FILE}" 2>/dev/null || true
	fi
	printf '%s\n' "${_mcp_line}"
	printf '%s\n' "${_mcp_message}" >&2
	exit 1
}

# mcp_fail_invalid_args [MESSAGE] [DATA_JSON]
#   mcp_fail -32602 with MESSAGE (default "Invalid params"). Exits 1.
mcp_fail_invalid_args() {
	mcp_fail -32602 "${1:-Invalid params}" "${2-}"
}

# _mcp_emit_error_result ERROR_OBJECT_JSON MESSAGE: prints the isError CallToolResult for an
# error object the SDK built itself (so known to be valid JSON). No JSON tool needed.
_mcp_emit_error_result() {
	local _mcp_text=""
	_mcp_json_quote_to _mcp_text "${2-}"
	printf '{"content":[{"type":"text","text":%s}],"structuredContent":{"success":false,"error":%s},"isError":true}\n' "${_mcp_text}" "${1-}"
}

# mcp_result_error ERROR_JSON
#   Prints a CallToolResult {content:[{type:"text",text:message}], structuredContent:
#   {success:false,error:OBJ}, isError:true}. OBJ is ERROR_JSON with `type` (default
#   internal_error) and `message` (default "Unknown error") filled in; input that is not a
#   single JSON object becomes an internal_error carrying the input as `raw`.
#   Minimal mode: type internal_error, message taken from a "message" string, raw = input.
#   Returns 0.
mcp_result_error() {
	local _mcp_in="${1-}" _mcp_err="" _mcp_raw="" _mcp_message="" _mcp_msg_json="" _mcp_raw_json=""
	local _mcp_msg_re='"message"[[:space:]]*:[[:space:]]*"([^"]*)"'
	[ -n "${_mcp_in}" ] || _mcp_in='{"type":"internal_error","message":"Unknown error (empty error object)"}'
	if _mcp_json_ok; then
		_mcp_err="$(_mcp_jq_data "${_mcp_in}" -c -s '
			if length != 1 then {type: "internal_error", message: "Error payload must be single JSON value", raw: ("multiple values: \(length)")}
			elif (.[0] | type) != "object" then {type: "internal_error", message: "Error payload must be an object", raw: (.[0] | tostring)}
			else .[0] + {type: (.[0].type // "internal_error"), message: (.[0].message // "Unknown error")}
			end' 2>/dev/null)" || _mcp_err=""
		if [ -z "${_mcp_err}" ]; then
			_mcp_json_quote_to _mcp_raw "${_mcp_in}"
			_mcp_err="{\"type\":\"internal_error\",\"message\":\"Invalid error JSON passed to mcp_result_error\",\"raw\":${_mcp_raw}}"
		fi
		_mcp_jq_data "${_mcp_err}" -c '
			{content: [{type: "text", text: ((.message // "Unknown error") | tostring)}],
			 structuredContent: {success: false, error: .},
			 isError: true}'
		return 0
	fi
	if [[ "${_mcp_in}" =~ ${_mcp_msg_re} ]]; then
		_mcp_message="${BASH_REMATCH[1]}"
	fi
	_mcp_json_quote_to _mcp_msg_json "${_mcp_message:-Unknown error}"
	_mcp_json_quote_to _mcp_raw_json "${_mcp_in}"
	printf '{"content":[{"type":"text","text":%s}],"structuredContent":{"success":false,"error":{"type":"internal_error","message":%s,"raw":%s}},"isError":true}\n' \
		"${_mcp_msg_json}" "${_mcp_msg_json}" "${_mcp_raw_json}"
	return 0
}

# mcp_error TYPE MESSAGE [--hint TEXT] [--data JSON]
#   Prints an isError CallToolResult (as mcp_result_error) for {type, message[, hint]
#   [, data]}; TYPE defaults to internal_error, MESSAGE to "Unknown error". DATA that does
#   not parse is kept as {"_invalid_json": "<raw>"} (minimal mode checks it in pure Bash).
#   Logs the error at debug level (and at warning level when a hint is given) under the
#   logger "mcp_error". Unknown flags are ignored. Returns 0.
mcp_error() {
	local _mcp_type="${1:-internal_error}" _mcp_message="${2:-Unknown error}" _mcp_hint="" _mcp_data="" _mcp_has_data=false
	local _mcp_err="" _mcp_q="" _mcp_data_json=""
	if [ "$#" -ge 2 ]; then shift 2; else shift "$#"; fi
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--hint) _mcp_hint="${2-}" ;;
		--data)
			_mcp_data="${2-}"
			_mcp_has_data=true
			;;
		*)
			shift
			continue
			;;
		esac
		if [ "$#" -ge 2 ]; then shift 2; else shift "$#"; fi
	done
	_mcp_json_quote_to _mcp_q "${_mcp_type}"
	_mcp_err="{\"type\":${_mcp_q}"
	_mcp_json_quote_to _mcp_q "${_mcp_message}"
	_mcp_err="${_mcp_err},\"message\":${_mcp_q}"
	if [ -n "${_mcp_hint}" ]; then
		_mcp_json_quote_to _mcp_q "${_mcp_hint}"
		_mcp_err="${_mcp_err},\"hint\":${_mcp_q}"
	fi
	if [ "${_mcp_has_data}" = true ] && [ -n "${_mcp_data}" ]; then
		if _mcp_json_ok; then
			_mcp_data_json="$(_mcp_jq_data "${_mcp_data}" -c -s 'if length == 1 then .[0] else error("not one value") end' 2>/dev/null)" || _mcp_data_json=""
		elif _mcp_json_check_bash "${_mcp_data}"; then
			_mcp_data_json="${_mcp_data}"
		fi
		if [ -z "${_mcp_data_json}" ]; then
			_mcp_json_quote_to _mcp_q "${_mcp_data}"
			_mcp_data_json="{\"_invalid_json\":${_mcp_q}}"
		fi
		[ "${_mcp_data_json}" = "null" ] || _mcp_err="${_mcp_err},\"data\":${_mcp_data_json}"
	fi
	mcp_log_debug "mcp_error" "type=${_mcp_type}: ${_mcp_message}"
	if [ -n "${_mcp_hint}" ]; then
		mcp_log_warn "mcp_error" "type=${_mcp_type}: ${_mcp_message} (hint: ${_mcp_hint})"
	fi
	_mcp_emit_error_result "${_mcp_err}}" "${_mcp_message}"
}

# mcp_extract_cli_error STDOUT STDERR EXIT_CODE
#   Prints the most useful error message from a CLI run: from JSON stdout .error.message,
#   .error (a string), .message (when success/ok is false or status is "error"),
#   .errors[0].message; else the first non-blank line of STDERR; else "CLI exited with code
#   EXIT_CODE". Minimal mode skips the JSON step. Returns 0.
mcp_extract_cli_error() {
	local _mcp_stdout="${1-}" _mcp_stderr="${2-}" _mcp_code="${3-}" _mcp_found="" _mcp_line=""
	if _mcp_json_ok && [ -n "${_mcp_stdout}" ] && mcp_is_valid_json "${_mcp_stdout}"; then
		_mcp_found="$(_mcp_jq_data "${_mcp_stdout}" -r '
			first(
				(select(.error | type == "object") | .error.message | values),
				(select(.error | type == "string") | .error),
				(select(.success == false or .ok == false or .status == "error") | .message | values),
				((.errors // [])[0].message | values)
			) // empty' 2>/dev/null)" || _mcp_found=""
	fi
	if [ -z "${_mcp_found}" ] && [ -n "${_mcp_stderr}" ]; then
		while IFS= read -r _mcp_line || [ -n "${_mcp_line}" ]; do
			_mcp_line="${_mcp_line%$'\r'}"
			case "${_mcp_line}" in
			*[![:space:]]*)
				_mcp_found="${_mcp_line}"
				break
				;;
			esac
			_mcp_line=""
		done <<EOF
${_mcp_stderr}
EOF
	fi
	if [ -n "${_mcp_found}" ]; then
		printf '%s' "${_mcp_found}"
	else
		printf 'CLI exited with code %s' "${_mcp_code}"
	fi
}
