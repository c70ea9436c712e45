#!/usr/bin/env bash
# A prompt script: prints the prompt's messages, one per line (mcp_prompt_message).
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK}/tool-sdk.sh"

severity="$(mcp_args_get '.severity')"
summary="$(mcp_args_get '.summary')"
case "${severity}" in
1) urgency="This is an outage: give me the first three things to check, nothing else." ;;
2) urgency="Users are affected: propose a mitigation before a root cause." ;;
*) urgency="No rush: suggest where the root cause may be and how to confirm it." ;;
esac

mcp_prompt_message user "Incident (severity ${severity}): ${summary}"
mcp_prompt_message user "${urgency}"
