#!/usr/bin/env bash
# Reads a file inside the roots. mcp_require_path resolves the path (symlinks included) and
# refuses one outside every root with -32602; a missing file is an error result with a hint.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

path="$(mcp_require_path '.path')"

if [ ! -f "${path}" ]; then
	mcp_error not_found "No file at ${path}" --hint "Call example-roots-list to see the allowed directories, then pass a file inside one of them"
	exit 0
fi

max_bytes=65536
size="$(wc -c <"${path}" | tr -d '[:space:]')"
if [ "${size}" -gt "${max_bytes}" ]; then
	mcp_error file_error "${path} is ${size} bytes; this example reads at most ${max_bytes}" --hint "Pick a smaller file"
	exit 0
fi

mcp_result_success "$(printf '{"path":%s,"bytes":%s,"content":%s}' "$(mcp_json_escape "${path}")" "${size}" "$(mcp_json_escape "$(cat -- "${path}")")")"
