#!/usr/bin/env bash
# shellcheck shell=bash
# Elicitation: asking the user through the client (docs/TOOL-CONTRACT.md, "Elicitation").
# The SDK writes one request file atomically and polls for the server's response file.
# Every helper prints the normalised answer {"action":"accept|decline|cancel|error",
# "content":...} and returns 0 when the client answered (even with decline), 1 when
# elicitation is unsupported (decline), not configured (error), timed out (error) or the
# call was cancelled (cancel). Works without a JSON tool. Loaded by tool-sdk.sh on first use.

# _mcp_elicit_send FUNCTION REQUEST_JSON TIMEOUT [SUPPORTED]: the elicitation handshake
# (SUPPORTED defaults to MCP_ELICIT_SUPPORTED).
_mcp_elicit_send() {
	local _mcp_supported="${4-}"
	[ -n "${_mcp_supported}" ] || _mcp_supported="${MCP_ELICIT_SUPPORTED:-0}"
	_mcp_client_request "${1-}" "${_mcp_supported}" "${MCP_ELICIT_REQUEST_FILE-}" \
		"${MCP_ELICIT_RESPONSE_FILE-}" "${2-}" "${3-}" "${MCPBASH_ELICITATION_TIMEOUT:-30}" \
		"Client does not support elicitation" "Elicitation environment not configured" \
		"Timeout waiting for user response" "elicitation request"
}

# mcp_elicit MESSAGE SCHEMA_JSON [TIMEOUT] [MODE]
#   Asks the user to fill in a form described by SCHEMA_JSON (a JSON Schema object; default
#   an empty object schema). TIMEOUT defaults to MCPBASH_ELICITATION_TIMEOUT (30 s); MODE to
#   "form". Writes {"message","schema","mode"}. Prints the answer; status as described above.
mcp_elicit() {
	local _mcp_msg="" _mcp_mode="" _mcp_schema="${2-}"
	[ -n "${_mcp_schema}" ] || _mcp_schema='{"type":"object","properties":{}}'
	_mcp_json_quote_to _mcp_msg "${1-}"
	_mcp_json_quote_to _mcp_mode "${4:-form}"
	_mcp_elicit_send mcp_elicit "{\"message\":${_mcp_msg},\"schema\":${_mcp_schema},\"mode\":${_mcp_mode}}" "${3-}"
}

# mcp_elicit_url MESSAGE URL [TIMEOUT] [ELICITATION_ID]
#   Asks the user to complete an out-of-band step at URL (sign-in, payment...): writes
#   {"message","url","mode":"url","elicitationId"}. The answer has no content; its
#   "elicitationId" is ELICITATION_ID (1-128 printable characters), else one the server chose,
#   for mcp_elicit_complete. When the client cannot show URLs in an MCP 2025-11-25 session
#   (MCP_ELICIT_URL=error), the call fails with -32042 naming the URL, for the client to show
#   and retry, and the tool is stopped. Status as described above.
mcp_elicit_url() {
	local _mcp_msg="" _mcp_url="" _mcp_id="" _mcp_supported=""
	_mcp_json_quote_to _mcp_msg "${1-}"
	_mcp_json_quote_to _mcp_url "${2-}"
	if [ -n "${4-}" ]; then
		_mcp_json_quote_to _mcp_id "${4}"
		_mcp_id=",\"elicitationId\":${_mcp_id}"
	fi
	[ "${MCP_ELICIT_URL-}" != error ] || _mcp_supported=1
	_mcp_elicit_send mcp_elicit_url "{\"message\":${_mcp_msg},\"url\":${_mcp_url},\"mode\":\"url\"${_mcp_id}}" \
		"${3-}" "${_mcp_supported}"
}

# mcp_elicit_complete ELICITATION_ID
#   Tells the client that the out-of-band step of a URL elicitation is done
#   (notifications/elicitation/complete), so it can move on or retry what waited for it.
#   ELICITATION_ID is the one mcp_elicit_url sent, in this session. Prints nothing; returns
#   0 once sent, 1 when the client does not take URL elicitations or the id is unknown.
mcp_elicit_complete() {
	local _mcp_id="" _mcp_answer="" _mcp_supported=0
	[ "${MCP_ELICIT_URL-}" != 1 ] || _mcp_supported=1
	_mcp_json_quote_to _mcp_id "${1-}"
	_mcp_answer="$(_mcp_elicit_send mcp_elicit_complete "{\"mode\":\"complete\",\"elicitationId\":${_mcp_id}}" \
		"" "${_mcp_supported}")" || return 1
	case "${_mcp_answer}" in
	*'"action":"accept"'*) return 0 ;;
	*) return 1 ;;
	esac
}

# _mcp_elicit_field MESSAGE FIELD PROPERTY_SCHEMA: mcp_elicit with a form of one required
# field FIELD described by PROPERTY_SCHEMA (JSON); its output and status are mcp_elicit's.
_mcp_elicit_field() {
	local _mcp_field=""
	_mcp_json_quote_to _mcp_field "${2-}"
	mcp_elicit "${1-}" "{\"type\":\"object\",\"properties\":{${_mcp_field}:${3-}},\"required\":[${_mcp_field}]}"
}

# mcp_elicit_string MESSAGE [FIELD]
#   Asks for one required string FIELD (default "value"): the answer's content is
#   {"FIELD":"..."}.
mcp_elicit_string() {
	_mcp_elicit_field "${1-}" "${2:-value}" '{"type":"string"}'
}

# mcp_elicit_confirm MESSAGE
#   Asks a yes/no question: content {"confirmed":true|false}.
mcp_elicit_confirm() {
	_mcp_elicit_field "${1-}" confirmed '{"type":"boolean"}'
}

# mcp_elicit_choice MESSAGE OPTION...
#   Asks to pick one OPTION: content {"choice":"..."}.
mcp_elicit_choice() {
	local _mcp_msg="${1-}" _mcp_enum=""
	[ "$#" -gt 0 ] && shift
	_mcp_enum="$(mcp_json_arr "$@")"
	_mcp_elicit_field "${_mcp_msg}" choice "{\"type\":\"string\",\"enum\":${_mcp_enum}}"
}

# _mcp_titled_options_to VAR "value:Title"...: sets VAR to [{"const":value,"title":Title},...]
# (an option without ":" is its own title).
_mcp_titled_options_to() {
	local _mcp_var="${1}" _mcp_opt="" _mcp_value="" _mcp_title="" _mcp_qv="" _mcp_qt="" _mcp_items="" _mcp_sep=""
	shift
	for _mcp_opt in "$@"; do
		_mcp_value="${_mcp_opt%%:*}"
		_mcp_title="${_mcp_opt#*:}"
		[ "${_mcp_value}" != "${_mcp_opt}" ] || _mcp_title="${_mcp_opt}"
		_mcp_json_quote_to _mcp_qv "${_mcp_value}"
		_mcp_json_quote_to _mcp_qt "${_mcp_title}"
		_mcp_items="${_mcp_items}${_mcp_sep}{\"const\":${_mcp_qv},\"title\":${_mcp_qt}}"
		_mcp_sep=","
	done
	printf -v "${_mcp_var}" '[%s]' "${_mcp_items}"
}

# mcp_elicit_titled_choice MESSAGE "value:Title"...
#   Asks to pick one option shown by title: content {"choice":"value"}.
mcp_elicit_titled_choice() {
	local _mcp_msg="${1-}" _mcp_one_of=""
	[ "$#" -gt 0 ] && shift
	_mcp_titled_options_to _mcp_one_of "$@"
	_mcp_elicit_field "${_mcp_msg}" choice "{\"type\":\"string\",\"oneOf\":${_mcp_one_of}}"
}

# mcp_elicit_multi_choice MESSAGE OPTION...
#   Asks to pick any number of OPTIONs: content {"choices":[...]}.
mcp_elicit_multi_choice() {
	local _mcp_msg="${1-}" _mcp_enum=""
	[ "$#" -gt 0 ] && shift
	_mcp_enum="$(mcp_json_arr "$@")"
	_mcp_elicit_field "${_mcp_msg}" choices "{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":${_mcp_enum}}}"
}

# mcp_elicit_titled_multi_choice MESSAGE "value:Title"...
#   Asks to pick any number of options shown by title: content {"choices":["value",...]}.
#   The options go in items.anyOf, as MCP 2025-11-25 has it for a titled multi-select (1.x
#   wrote oneOf, which clients reject).
mcp_elicit_titled_multi_choice() {
	local _mcp_msg="${1-}" _mcp_options=""
	[ "$#" -gt 0 ] && shift
	_mcp_titled_options_to _mcp_options "$@"
	_mcp_elicit_field "${_mcp_msg}" choices "{\"type\":\"array\",\"items\":{\"anyOf\":${_mcp_options}}}"
}
