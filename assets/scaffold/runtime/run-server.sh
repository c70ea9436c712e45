#!/bin/sh
# Serves this project with the mcp-bash vendored in .mcp-bash/ (made by `mcp-bash vendor`).
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
MCPBASH_PROJECT_ROOT=${MCPBASH_PROJECT_ROOT:-$here}
export MCPBASH_PROJECT_ROOT
exec __VENDOR_BIN__ "$@"
