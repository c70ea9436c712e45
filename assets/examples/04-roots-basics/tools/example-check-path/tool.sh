#!/usr/bin/env bash
# Checks a path against the roots with mcp_roots_contains, which answers yes or no instead
# of failing the call the way mcp_require_path does.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

raw="$(mcp_args_require '.path')"
# The physical path: relative to the working directory (the project root), symlinks resolved.
path="$(mcp_path_normalize --physical -- "${raw}")"

inside=false
if mcp_roots_contains "${path}"; then
	inside=true
fi

mcp_result_success "$(printf '{"path":%s,"insideRoots":%s}' "$(mcp_json_escape "${path}")" "${inside}")"
