#!/usr/bin/env bash
# shellcheck shell=bash
# Helpers for a project's server.d/health-checks.sh, sourced by `mcp-bash health` before it.
# Each prints one line to stderr ("✓ ..." or "✗ ...") and returns 0 when the check passes,
# 1 when it fails. Every failure is also counted in _MCPBASH_HEALTH_FAILURES, so a failed
# check makes the probe unhealthy wherever it is in the script (not only on its last line).
# Bash 3.2 compatible; sets no shell options; safe to source twice.

if [ -n "${_MCPBASH_HEALTH_CHECKS_LOADED-}" ]; then
	return 0
fi
_MCPBASH_HEALTH_CHECKS_LOADED=1
_MCPBASH_HEALTH_FAILURES=0

# mcp_health_check_command COMMAND [MESSAGE]
#   Passes when COMMAND is found on PATH. MESSAGE (default COMMAND) names it in the output.
#   Prints "✓ MESSAGE (COMMAND found)" or "✗ MESSAGE (COMMAND not found on PATH)" to stderr.
mcp_health_check_command() {
	local _mcp_cmd="${1-}" _mcp_label="${2:-${1-}}"
	if [ -n "${_mcp_cmd}" ] && command -v "${_mcp_cmd}" >/dev/null 2>&1; then
		printf '✓ %s (%s found)\n' "${_mcp_label}" "${_mcp_cmd}" >&2
		return 0
	fi
	printf '✗ %s (%s not found on PATH)\n' "${_mcp_label}" "${_mcp_cmd}" >&2
	_MCPBASH_HEALTH_FAILURES=$((_MCPBASH_HEALTH_FAILURES + 1))
	return 1
}

# mcp_health_check_env VARIABLE [MESSAGE]
#   Passes when VARIABLE is set and not empty (its value is never printed).
#   Prints "✓ MESSAGE (VARIABLE is set)" or "✗ MESSAGE (VARIABLE is not set)" to stderr.
mcp_health_check_env() {
	local _mcp_var="${1-}" _mcp_label="${2:-${1-}}" _mcp_name_re='^[A-Za-z_][A-Za-z0-9_]*$'
	if [[ "${_mcp_var}" =~ ${_mcp_name_re} ]] && [ -n "${!_mcp_var-}" ]; then
		printf '✓ %s (%s is set)\n' "${_mcp_label}" "${_mcp_var}" >&2
		return 0
	fi
	printf '✗ %s (%s is not set)\n' "${_mcp_label}" "${_mcp_var}" >&2
	_MCPBASH_HEALTH_FAILURES=$((_MCPBASH_HEALTH_FAILURES + 1))
	return 1
}
