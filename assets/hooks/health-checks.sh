#!/usr/bin/env bash
# Runs a project's server.d/health-checks.sh for `mcp-bash health`, with the SDK's
# mcp_health_check_command and mcp_health_check_env helpers loaded.
# Usage: health-checks.sh <sdk-dir> <health-checks.sh>
# Exit status: the checks' own (0 healthy); 101 when the helpers cannot be loaded.
# The checks' stdout goes to stderr, so the probe's JSON line stays alone on stdout.

# shellcheck source=/dev/null
. "${1:?sdk dir required}/health-checks.sh" || exit 101
# shellcheck source=/dev/null
. "${2:?health-checks.sh path required}" >&2
