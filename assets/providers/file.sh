#!/usr/bin/env bash
# Built-in resource provider for file:// URIs.
#
#   file.sh URI      prints the file's bytes, exactly as on disk
#
# The rules (percent-decoding, the allowed roots MCP_RESOURCES_ROOTS, then
# MCPBASH_RESOURCES_DIR, then MCPBASH_PROJECT_ROOT, no symbolic links, the exit statuses
# 2 outside the roots, 3 not found or unreadable, 4 not a file:// URI) live in the mcp-bash
# binary, which serves file:// reads in-process; this script, for projects and providers that
# run it directly, hands the URI to the same code: `mcp-bash file-provider URI`. The server
# gives providers MCPBASH_BIN; elsewhere mcp-bash is looked up on PATH.
set -euo pipefail

bin="${MCPBASH_BIN:-}"
if [ -z "${bin}" ] && ! bin="$(command -v mcp-bash)"; then
	printf '%s\n' "file provider: mcp-bash not found (set MCPBASH_BIN or put mcp-bash on PATH)" >&2
	exit 1
fi
exec "${bin}" file-provider "$@"
