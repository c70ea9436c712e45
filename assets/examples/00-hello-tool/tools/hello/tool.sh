#!/usr/bin/env bash
# Greets someone by name: reads an argument with the SDK and answers with a result envelope.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

name="$(mcp_args_get '.name // "World"')"
mcp_result_success "$(mcp_json_obj message "Hello, ${name}!")"
