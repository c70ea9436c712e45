#!/usr/bin/env bash
# Runs a project's server.d/policy.sh check for one tool call.
# Usage: policy-check.sh <policy.sh> <tool-name> <tool-metadata-json-file>
# The metadata comes in a file (a large inputSchema would not fit in one argument: E2BIG)
# and is handed to the hook as before: mcp_tools_policy_check NAME METADATA_JSON.
# The hook has 1.x's helpers ($MCP_SDK/hook-helpers.sh: mcp_logging_*, mcp_json_*, ...).
# Exit 0 allows, 100 means "no mcp_tools_policy_check defined" (use the default policy),
# 101 means policy.sh (or the helpers) failed to load, anything else denies. A denial may
# choose its error with mcp_tools_error CODE MESSAGE [DATA_JSON], or, as 1.x's own checks
# did, by setting _MCP_TOOLS_ERROR_CODE / _MCP_TOOLS_ERROR_MESSAGE / _MCP_TOOLS_ERROR_DATA;
# it is recorded NUL-separated in $MCPBASH_POLICY_ERROR_FILE.

_MCP_TOOLS_ERROR_CODE=''
_MCP_TOOLS_ERROR_MESSAGE=''
_MCP_TOOLS_ERROR_DATA=''

# shellcheck disable=SC2317 # called by policy.sh
mcp_tools_error() {
	_MCP_TOOLS_ERROR_CODE="${1:-}"
	_MCP_TOOLS_ERROR_MESSAGE="${2:-}"
	_MCP_TOOLS_ERROR_DATA="${3:-}"
}

# shellcheck source=/dev/null
. "${MCP_SDK:?MCP_SDK must name the SDK directory}/hook-helpers.sh" || exit 101

_mcp_policy_metadata='{}'
if [ -s "${3:-}" ]; then
	_mcp_policy_metadata="$(<"$3")"
fi

# shellcheck source=/dev/null
. "${1:?policy.sh path required}" || exit 101
if ! declare -F mcp_tools_policy_check >/dev/null; then
	exit 100
fi
_mcp_policy_status=0
mcp_tools_policy_check "${2:?tool name required}" "${_mcp_policy_metadata}" || _mcp_policy_status=$?
if [ "${_mcp_policy_status}" -ne 0 ] && [ -n "${_MCP_TOOLS_ERROR_CODE}${_MCP_TOOLS_ERROR_MESSAGE}" ]; then
	printf '%s\0%s\0%s' "${_MCP_TOOLS_ERROR_CODE}" "${_MCP_TOOLS_ERROR_MESSAGE}" "${_MCP_TOOLS_ERROR_DATA}" \
		>"${MCPBASH_POLICY_ERROR_FILE:?}"
fi
exit "${_mcp_policy_status}"
