#!/usr/bin/env bash
# Starts the pretend build: data/build.step counts the steps done. The progress view (ui/)
# polls example-build-status, which advances one step per call.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

printf '0\n' >"${MCPBASH_PROJECT_ROOT:?}/data/build.step"
mcp_result_with_ui "" "Build started: checkout, install, compile, test, package. example-build-status reports its progress." \
	'{"progress":0,"total":5,"message":"Queued","steps":[]}'
