#!/usr/bin/env bash
# shellcheck shell=bash
# Sampling: asking the client's model for a completion (docs/TOOL-CONTRACT.md, "Sampling").
# The SDK writes one request file and polls for the server's answer, as elicitation does.
# Works without a JSON tool. Loaded by tool-sdk.sh on first use.

# _mcp_sample_request_to VAR FUNCTION MESSAGES_JSON [OPTIONS...]: sets VAR to the request
# {"messages","maxTokens",...} for MESSAGES_JSON and the options; returns 1 (with a warning)
# for an option it cannot use. Sets _MCPBASH_SAMPLE_TIMEOUT from --timeout.
_mcp_sample_request_to() {
	local _mcp_var="${1}" _mcp_fn="${2}" _mcp_json="" _mcp_q="" _mcp_max=1000 _mcp_hints=""
	_mcp_json="{\"messages\":${3-}"
	shift 3
	_MCPBASH_SAMPLE_TIMEOUT=""
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--system)
			_mcp_json_quote_to _mcp_q "${2-}"
			_mcp_json="${_mcp_json},\"systemPrompt\":${_mcp_q}"
			;;
		--max-tokens)
			if ! _mcp_is_uint "${2-}" || [ "$((10#${2}))" -eq 0 ]; then
				_mcp_warn "${_mcp_fn}: --max-tokens needs a positive number, got '${2-}'"
				return 1
			fi
			_mcp_max="$((10#${2}))"
			;;
		--model-hint)
			_mcp_json_quote_to _mcp_q "${2-}"
			_mcp_hints="${_mcp_hints},{\"name\":${_mcp_q}}"
			;;
		--temperature)
			case "${2-}" in
			'' | *[!0-9.]* | *.*.* | .)
				_mcp_warn "${_mcp_fn}: --temperature needs a number such as 0.7, got '${2-}'"
				return 1
				;;
			esac
			_mcp_q="${2}"
			case "${_mcp_q}" in .*) _mcp_q="0${_mcp_q}" ;; esac
			case "${_mcp_q}" in *.) _mcp_q="${_mcp_q}0" ;; esac
			_mcp_json="${_mcp_json},\"temperature\":${_mcp_q}"
			;;
		--timeout) _MCPBASH_SAMPLE_TIMEOUT="${2-}" ;;
		*)
			_mcp_warn "${_mcp_fn}: unknown option: $1"
			return 1
			;;
		esac
		if [ "$#" -ge 2 ]; then shift 2; else shift; fi
	done
	[ -z "${_mcp_hints}" ] || _mcp_json="${_mcp_json},\"modelPreferences\":{\"hints\":[${_mcp_hints#,}]}"
	printf -v "${_mcp_var}" '%s,"maxTokens":%s}' "${_mcp_json}" "${_mcp_max}"
}

# _mcp_sample_send FUNCTION REQUEST_JSON: the sampling handshake; prints the answer.
_mcp_sample_send() {
	_mcp_client_request "${1-}" "${MCP_SAMPLE_SUPPORTED:-0}" "${MCP_SAMPLE_REQUEST_FILE-}" \
		"${MCP_SAMPLE_RESPONSE_FILE-}" "${2-}" "${_MCPBASH_SAMPLE_TIMEOUT-}" "${MCPBASH_SAMPLING_TIMEOUT:-120}" \
		"Client does not support sampling" "Sampling environment not configured" \
		"Timeout waiting for the client's model" "sampling request"
}

# mcp_sample_messages MESSAGES_JSON [--system TEXT] [--max-tokens N] [--model-hint NAME]...
#     [--temperature T] [--timeout SECS]
#   Asks the client's model to continue MESSAGES_JSON (MCP sampling messages: a JSON array
#   of {"role":"user"|"assistant","content":{"type":"text","text":...}}, images and audio
#   too). --max-tokens defaults to 1000; --timeout to MCPBASH_SAMPLING_TIMEOUT (120 s).
#   Prints the answer {"action","content"}: "accept" with the client's CreateMessageResult
#   ({"role","content","model","stopReason"}), "decline" (the client refused; content
#   {"code","message"}), "cancel" or "error". Returns 0 for accept, else 1 (a client
#   without sampling: decline, with a warning).
mcp_sample_messages() {
	local _mcp_request=""
	if [ -z "${1-}" ]; then
		_mcp_warn "mcp_sample_messages: MESSAGES_JSON is required"
		printf '{"action":"error","content":null}'
		return 1
	fi
	if ! _mcp_sample_request_to _mcp_request mcp_sample_messages "$@"; then
		printf '{"action":"error","content":null}'
		return 1
	fi
	_mcp_sample_answer_status mcp_sample_messages "${_mcp_request}"
}

# _mcp_sample_answer_status FUNCTION REQUEST_JSON: sends, prints the answer, returns 0 for accept.
_mcp_sample_answer_status() {
	local _mcp_answer=""
	# A failed handshake prints its own decline, error or cancel answer: status follows the answer.
	_mcp_answer="$(_mcp_sample_send "${1}" "${2}")" || true
	printf '%s' "${_mcp_answer}"
	case "${_mcp_answer}" in
	'{"action":"accept"'*) return 0 ;;
	esac
	return 1
}

# mcp_sample TEXT [--system TEXT] [--max-tokens N] [--model-hint NAME]... [--temperature T]
#     [--timeout SECS]
#   Asks the client's model about TEXT (one user message) and prints the text it answered
#   with, nothing else. Returns 0 when the model answered with text; 1 otherwise (no
#   sampling in the client, refused, cancelled, timed out, or an answer that is not text:
#   use mcp_sample_messages for the whole answer), with a warning.
mcp_sample() {
	local _mcp_q="" _mcp_request="" _mcp_answer="" _mcp_text_file=""
	_mcp_json_quote_to _mcp_q "${1-}"
	[ "$#" -gt 0 ] && shift
	_mcp_sample_request_to _mcp_request mcp_sample \
		"[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":${_mcp_q}}}]" "$@" || return 1
	[ -z "${MCP_SAMPLE_RESPONSE_FILE-}" ] || _mcp_text_file="${MCP_SAMPLE_RESPONSE_FILE%.json}.txt"
	[ -z "${_mcp_text_file}" ] || rm -f -- "${_mcp_text_file}"
	if ! _mcp_answer="$(_mcp_sample_answer_status mcp_sample "${_mcp_request}")"; then
		case "${_mcp_answer}" in
		'{"action":"decline","content":{'*) _mcp_warn "mcp_sample: the client declined: ${_mcp_answer}" ;;
		esac
		return 1
	fi
	if [ -z "${_mcp_text_file}" ] || [ ! -f "${_mcp_text_file}" ]; then
		_mcp_warn "mcp_sample: the model's answer is not text; mcp_sample_messages prints it whole"
		return 1
	fi
	cat -- "${_mcp_text_file}"
	rm -f -- "${_mcp_text_file}"
}
