#!/usr/bin/env bash
# Runs a project's server.d/policy.sh check for one tool call.
# Usage: policy-check.sh <policy.sh> <tool-name> <tool-metadata-json-file>
# The metadata comes in a file (a large inputSchema would not fit in one argument: E2BIG)
# and is handed to the hook as before: mcp_tools_policy_check NAME METADATA_JSON.
# Exit 0 allows, 100 means "no mcp_tools_policy_check defined" (use the default policy),
# 101 means policy.sh failed to load, anything else denies. A denial may choose its error
# with mcp_tools_error CODE MESSAGE [DATA_JSON], recorded NUL-separated in
# $MCPBASH_POLICY_ERROR_FILE.

mcp_tools_error() {
	printf '%s\0%s\0%s' "${1:-}" "${2:-}" "${3:-}" >"${MCPBASH_POLICY_ERROR_FILE:?}"
}

_mcp_policy_metadata='{}'
if [ -s "${3:-}" ]; then
	_mcp_policy_metadata="$(<"$3")"
fi

# shellcheck source=/dev/null
. "${1:?policy.sh path required}" || exit 101
if ! declare -F mcp_tools_policy_check >/dev/null; then
	exit 100
fi
mcp_tools_policy_check "${2:?tool name required}" "${_mcp_policy_metadata}"
