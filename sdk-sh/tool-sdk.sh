#!/usr/bin/env bash
# shellcheck shell=bash source-path=SCRIPTDIR
#
# mcp-bash tool SDK. Tools load it with:  source "${MCP_SDK}/tool-sdk.sh"
#
# Helpers for arguments, results, errors, progress, logging, cancellation, roots,
# elicitation, configuration, safe downloads and MCP Apps views. The side channel to the
# server is described in docs/TOOL-CONTRACT.md; every function is documented in docs/SDK.md.
#
# Rules this library keeps (it runs inside other people's scripts):
#   - Bash 3.2 compatible; sets no shell options; safe under `set -euo pipefail`.
#   - Sourcing it twice is harmless.
#   - Public names are `mcp_*`; private helpers `_mcp_*`; globals `MCPBASH_*`/`_MCPBASH_*`.
#   - JSON work uses $MCPBASH_JSON_TOOL_BIN (jq, gojq or the mcp-bash built-in jq).
#     "Minimal mode" (MCPBASH_MODE=minimal, or no usable MCPBASH_JSON_TOOL_BIN) falls
#     back to pure Bash where the helper can work without a JSON processor.

# Re-source guard.
if [ -n "${_MCPBASH_TOOL_SDK_LOADED-}" ]; then
	return 0
fi
_MCPBASH_TOOL_SDK_LOADED=1

# The directory holding this file (MCP_SDK as the server sets it), made absolute.
_MCPBASH_SDK_DIR="${BASH_SOURCE[0]-}"
case "${_MCPBASH_SDK_DIR}" in
*/*) _MCPBASH_SDK_DIR="${_MCPBASH_SDK_DIR%/*}" ;;
*) _MCPBASH_SDK_DIR="." ;;
esac
case "${_MCPBASH_SDK_DIR}" in
/*) ;;
*) _MCPBASH_SDK_DIR="${PWD}/${_MCPBASH_SDK_DIR}" ;;
esac

# The cancellation marker under the name 1.x tools used. The server's MCP_CANCEL_FILE wins
# (a value inherited from an outer call would point at the wrong marker); an already set
# MCP_TOOL_CANCELLATION_FILE is kept only when MCP_CANCEL_FILE is empty.
if [ -n "${MCP_CANCEL_FILE-}" ]; then
	MCP_TOOL_CANCELLATION_FILE="${MCP_CANCEL_FILE}"
else
	MCP_TOOL_CANCELLATION_FILE="${MCP_TOOL_CANCELLATION_FILE-}"
fi
export MCP_TOOL_CANCELLATION_FILE

# shellcheck source=lib/core.sh
. "${_MCPBASH_SDK_DIR}/lib/core.sh"
# shellcheck source=lib/jq-service.sh
. "${_MCPBASH_SDK_DIR}/lib/jq-service.sh"
# shellcheck source=lib/json.sh
. "${_MCPBASH_SDK_DIR}/lib/json.sh"
# shellcheck source=lib/args.sh
. "${_MCPBASH_SDK_DIR}/lib/args.sh"
# shellcheck source=lib/notify.sh
. "${_MCPBASH_SDK_DIR}/lib/notify.sh"
# shellcheck source=lib/results.sh
. "${_MCPBASH_SDK_DIR}/lib/results.sh"
# shellcheck source=lib/content.sh
. "${_MCPBASH_SDK_DIR}/lib/content.sh"
# shellcheck source=lib/path.sh
. "${_MCPBASH_SDK_DIR}/lib/path.sh"
# shellcheck source=lib/roots.sh
. "${_MCPBASH_SDK_DIR}/lib/roots.sh"
# shellcheck source=lib/elicit.sh
. "${_MCPBASH_SDK_DIR}/lib/elicit.sh"
# shellcheck source=lib/sample.sh
. "${_MCPBASH_SDK_DIR}/lib/sample.sh"
# shellcheck source=lib/config.sh
. "${_MCPBASH_SDK_DIR}/lib/config.sh"
# shellcheck source=lib/truncate.sh
. "${_MCPBASH_SDK_DIR}/lib/truncate.sh"
# shellcheck source=lib/download.sh
. "${_MCPBASH_SDK_DIR}/lib/download.sh"
# shellcheck source=lib/progress-passthrough.sh
. "${_MCPBASH_SDK_DIR}/lib/progress-passthrough.sh"
# shellcheck source=lib/ui.sh
. "${_MCPBASH_SDK_DIR}/lib/ui.sh"
