#!/usr/bin/env bash
# Asks the user for what is missing (a choice, then a string), then for a yes/no
# confirmation. Every answer is {"action":"accept|decline|cancel|error","content":...};
# only "accept" carries content. Without elicitation (MCP_ELICIT_SUPPORTED=0) the tool
# works from its arguments alone.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

size="$(mcp_args_get '.size // empty')"
name="$(mcp_args_get '.name // empty')"

# json_field JSON FILTER: one value of an answer.
json_field() {
	printf '%s' "${1}" | "${MCPBASH_JSON_TOOL_BIN}" -r "${2}"
}

# require_accept ANSWER: returns when the user accepted; otherwise ends the call with a
# result that says why nothing was ordered. Declining is an answer, not an error.
require_accept() {
	local action
	action="$(json_field "${1}" '.action')"
	case "${action}" in
	accept) return 0 ;;
	decline | cancel)
		mcp_result_success "{\"ordered\":false,\"reason\":\"${action}\"}"
		exit 0
		;;
	*)
		mcp_error elicitation_failed "Could not get an answer from the user (${action})" \
			--hint "Pass size and name as arguments to order without questions"
		exit 0
		;;
	esac
}

if [ "${MCP_ELICIT_SUPPORTED:-0}" != "1" ]; then
	# The client cannot ask the user: fall back to the arguments, or explain what is missing.
	if [ -z "${size}" ] || [ -z "${name}" ]; then
		mcp_error validation_error "This client cannot ask questions, so size and name are both needed" \
			--hint "Call again with both, e.g. {\"size\":\"medium\",\"name\":\"Ada\"}"
		exit 0
	fi
	mcp_result_success "$(printf '{"ordered":true,"size":%s,"name":%s,"confirmed":false}' "$(mcp_json_escape "${size}")" "$(mcp_json_escape "${name}")")"
	exit 0
fi

# The helpers return 1 when there was no answer (timeout, cancellation); the printed answer
# says which, so `|| true` keeps set -e from ending the tool before we can look.
if [ -z "${size}" ]; then
	answer="$(mcp_elicit_choice "Which size would you like?" small medium large)" || true
	require_accept "${answer}"
	size="$(json_field "${answer}" '.content.choice')"
	# Clients should check answers against the schema, but the tool cannot rely on that.
	case "${size}" in
	small | medium | large) ;;
	*)
		mcp_error validation_error "Unknown size: ${size}" --hint "Choose small, medium or large"
		exit 0
		;;
	esac
fi

if [ -z "${name}" ]; then
	answer="$(mcp_elicit_string "What name should go on the cup?" name)" || true
	require_accept "${answer}"
	name="$(json_field "${answer}" '.content.name')"
	case "${name}" in
	*[![:space:]]*) ;;
	*) name="Guest" ;;
	esac
fi

answer="$(mcp_elicit_confirm "Order a ${size} coffee for ${name}?")" || true
require_accept "${answer}"
if [ "$(json_field "${answer}" '.content.confirmed')" != "true" ]; then
	mcp_result_success '{"ordered":false,"reason":"not confirmed"}'
	exit 0
fi

mcp_result_success "$(printf '{"ordered":true,"size":%s,"name":%s,"confirmed":true}' "$(mcp_json_escape "${size}")" "$(mcp_json_escape "${name}")")"
