#!/usr/bin/env bash
# hello: the example tool of a new mcp-bash project. Try it with
#   mcp-bash run-tool hello --allow-self --args '{"name":"Ada"}'
set -euo pipefail

if [ -z "${MCP_SDK:-}" ] || [ ! -f "${MCP_SDK}/tool-sdk.sh" ]; then
	printf 'MCP_SDK is not set: run this tool through mcp-bash (mcp-bash run-tool hello --allow-self)\n' >&2
	exit 1
fi
# shellcheck source=/dev/null
source "${MCP_SDK}/tool-sdk.sh"

name="$(mcp_args_get '.name // "World"')"
mcp_result_success "$(mcp_json_obj message "Hello, ${name}!")"
