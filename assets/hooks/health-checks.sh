#!/usr/bin/env bash
# Runs a project's server.d/health-checks.sh for `mcp-bash health`, with the SDK's
# mcp_health_check_command and mcp_health_check_env helpers and 1.x's hook helpers loaded.
# Usage: health-checks.sh <sdk-dir> <health-checks.sh>
# Exit status: 0 when the script succeeded and none of its checks failed; 1 when any check
# failed (every check still runs and prints); the script's own status when it failed
# otherwise; 101 when the helpers cannot be loaded.
# The checks' stdout goes to stderr, so the probe's JSON line stays alone on stdout.

# shellcheck source=/dev/null
. "${1:?sdk dir required}/health-checks.sh" || exit 101
# 1.x's helpers for hooks (mcp_logging_*, mcp_json_*, ...).
# shellcheck source=/dev/null
. "${1}/hook-helpers.sh" || exit 101
status=0
# shellcheck source=/dev/null
. "${2:?health-checks.sh path required}" >&2 || status=$?
if [ "${status}" -eq 0 ] && [ "${_MCPBASH_HEALTH_FAILURES:-0}" -gt 0 ]; then
	status=1
fi
exit "${status}"
