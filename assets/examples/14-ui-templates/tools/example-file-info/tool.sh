#!/usr/bin/env bash
# One file of sample/: its size and lines (a directory: how many entries).
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"
# shellcheck source=SCRIPTDIR/../../lib/sample-path.sh
source "${MCPBASH_PROJECT_ROOT:?}/lib/sample-path.sh"

name="$(mcp_args_require '.nodeId')"
if ! path="$(sample_path "${name}")" || [ ! -e "${path}" ]; then
	mcp_error "not_found" "sample/${name} does not exist" --hint "Call example-file-tree to see the files"
	exit 0
fi
if [ -d "${path}" ]; then
	entries="$(find "${path}" -mindepth 1 -maxdepth 1 | wc -l | tr -d ' ')"
	mcp_result_with_ui "" "sample/${name}: a directory with ${entries} entries" "{\"entries\":${entries}}"
	exit 0
fi
bytes="$(wc -c <"${path}" | tr -d ' ')"
lines="$(wc -l <"${path}" | tr -d ' ')"
mcp_result_with_ui "" "sample/${name}: ${bytes} bytes, ${lines} lines" "{\"bytes\":${bytes},\"lines\":${lines}}"
