#!/usr/bin/env bash
# shellcheck shell=bash
# Tool execution errors with a type and a hint, and the error message of a failed CLI run.
# Loaded on first use (tool-sdk.sh).

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
