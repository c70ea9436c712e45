#!/usr/bin/env bash
# Rewrites data/tasks.tsv with one task in another column (a temporary file and a rename).
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

card="$(mcp_args_require '.cardId')"
column="$(mcp_args_require '.toColumn')"
tasks="${MCPBASH_PROJECT_ROOT:?}/data/tasks.tsv"
if ! cut -f1 "${tasks}" | grep -qxF -- "${card}"; then
	mcp_error "not_found" "no task ${card}" --hint "Call example-task-board to see the tasks"
	exit 0
fi
tmp="$(mktemp "${tasks}.XXXXXX")"
trap 'rm -f -- "${tmp}"' EXIT
awk -F '\t' -v OFS='\t' -v id="${card}" -v to="${column}" '$1 == id { $2 = to } { print }' "${tasks}" >"${tmp}"
mv -f -- "${tmp}" "${tasks}"
mcp_result_with_ui "" "Moved ${card} to ${column}." "$(mcp_json_obj cardId "${card}" column "${column}")"
