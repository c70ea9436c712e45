#!/usr/bin/env bash
# Lists the MCP roots. Tools get them from the client (roots/list), else from MCPBASH_ROOTS,
# else from config/roots.json, else the project root.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

count="$(mcp_roots_count)"

# mcp_roots_list prints one physical path per line.
paths="["
sep=""
while IFS= read -r root; do
	[ -n "${root}" ] || continue
	paths="${paths}${sep}$(mcp_json_escape "${root}")"
	sep=","
done <<EOF_ROOTS
$(mcp_roots_list)
EOF_ROOTS
paths="${paths}]"

# MCP_ROOTS_JSON has the same roots with their names and file:// URIs.
mcp_result_success "{\"count\":${count},\"paths\":${paths},\"roots\":${MCP_ROOTS_JSON:-[]}}"
