#!/usr/bin/env bash
# A tool that is only a script: its name, description and schema live in
# server.d/register.json, which points at this file with "path": "clock.sh".
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

zone="$(mcp_args_get '.zone // "utc"')"
case "${zone}" in
utc) now="$(date -u '+%Y-%m-%dT%H:%M:%SZ')" ;;
local) now="$(date '+%Y-%m-%dT%H:%M:%S%z')" ;;
*) mcp_fail_invalid_args "zone must be utc or local" ;;
esac

mcp_result_success "$(mcp_json_obj zone "${zone}" now "${now}")"
