#!/usr/bin/env bash
# The tasks as kanban cards ({id, title, column, priority}).
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

cards=""
text=""
while IFS=$'\t' read -r id column title priority; do
	[ "${id}" != "id" ] || continue
	cards="${cards:+${cards},}$(mcp_json_obj id "${id}" column "${column}" title "${title}" priority "${priority}")"
	text="${text}${id} [${column}] ${title} (${priority})"$'\n'
done <"${MCPBASH_PROJECT_ROOT:?}/data/tasks.tsv"
mcp_result_with_ui "" "${text}" "{\"cards\":[${cards}]}"
