#!/bin/sh
# mcp-bash, vendored as mcp-bash.cjs: runs it with the node on PATH (MCPBASH_NODE overrides).
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
exec "${MCPBASH_NODE:-node}" "$here/../lib/mcp-bash.cjs" "$@"
