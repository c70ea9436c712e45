#!/usr/bin/env bash
# mcp-bash tool SDK. Tools load it with: source "${MCP_SDK}/tool-sdk.sh"

# Re-source guard: sourcing the SDK twice is harmless.
if [ -n "${MCPBASH_TOOL_SDK_LOADED:-}" ]; then
	return 0
fi
MCPBASH_TOOL_SDK_LOADED=1
