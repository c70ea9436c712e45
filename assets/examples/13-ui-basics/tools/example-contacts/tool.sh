#!/usr/bin/env bash
# Lists contacts. The view in ui/ (a data-table template) renders structuredContent.items;
# the text content is what the model, and clients without MCP Apps, read.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

query="$(mcp_args_get '.query // ""' | tr '[:upper:]' '[:lower:]')"
team="$(mcp_args_get '.team // ""')"

items=""
lines=""
count=0
while IFS=$'\t' read -r name email member_of; do
	[ "${name}" != "name" ] || continue
	[ -z "${team}" ] || [ "${member_of}" = "${team}" ] || continue
	haystack="$(printf '%s %s' "${name}" "${email}" | tr '[:upper:]' '[:lower:]')"
	case "${haystack}" in
	*"${query}"*) ;;
	*) continue ;;
	esac
	items="${items:+${items},}$(mcp_json_obj name "${name}" email "${email}" team "${member_of}")"
	lines="${lines}$(printf '%s <%s> (%s)' "${name}" "${email}" "${member_of}")"$'\n'
	count=$((count + 1))
done <"${MCPBASH_PROJECT_ROOT:?}/data/contacts.tsv"

# With a client that renders views: text + structuredContent. Without: the text alone.
mcp_result_with_ui "" "${count} contact(s):"$'\n'"${lines}" "{\"items\":[${items}]}"
