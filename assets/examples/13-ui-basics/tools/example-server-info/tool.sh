#!/usr/bin/env bash
# Reports what serves the project. _meta.ui.resourceUri in tool.meta.json points clients with
# MCP Apps at the standalone view ui/about/, which renders structuredContent.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

views="no"
if mcp_client_supports_ui; then
	views="yes"
fi
data="$(mcp_json_obj server "${MCPBASH_SERVER_NAME:-}" framework "mcp-bash ${MCPBASH_FRAMEWORK_VERSION:-}" \
	jsonTool "${MCPBASH_JSON_TOOL:-none}" views "${views}")"
mcp_result_with_ui "" "${MCPBASH_SERVER_NAME:-} on mcp-bash ${MCPBASH_FRAMEWORK_VERSION:-} (views: ${views})" "${data}"
