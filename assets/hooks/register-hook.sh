#!/usr/bin/env bash
# Runs a project's server.d/register.sh with the registration helpers of mcp-bash.
# Usage: register-hook.sh <copy-of-register.sh> <registrations-file>
# Each helper appends a NUL-terminated "<kind><TAB><json>" record to the registrations
# file. Whatever the script prints on stdout is returned too: it may be a JSON object
# {"tools":[...],"resources":[...],...} instead of (or besides) helper calls.
# The hook also has 1.x's helpers ($MCP_SDK/hook-helpers.sh: mcp_logging_*, mcp_json_*, ...).
set -u

# shellcheck source=/dev/null
. "${MCP_SDK:?MCP_SDK must name the SDK directory}/hook-helpers.sh" || exit 101

_MCPBASH_REGISTER_OUT="${2:?registrations file required}"

_mcp_register_emit() {
	printf '%s\t%s\0' "$1" "$2" >>"${_MCPBASH_REGISTER_OUT}"
}

mcp_register_tool() { _mcp_register_emit tools "${1:?mcp_register_tool needs a JSON object}"; }
mcp_register_resource() { _mcp_register_emit resources "${1:?mcp_register_resource needs a JSON object}"; }
mcp_register_prompt() { _mcp_register_emit prompts "${1:?mcp_register_prompt needs a JSON object}"; }
mcp_resources_templates_manual_begin() { _mcp_register_emit resourceTemplates __begin__; }
mcp_resources_templates_register_manual() { _mcp_register_emit resourceTemplates "${1:?a JSON object is required}"; }
mcp_resources_templates_manual_finalize() { :; }
mcp_completion_manual_begin() { _mcp_register_emit completions __begin__; }
mcp_completion_manual_register() { _mcp_register_emit completions "${1:?a JSON object is required}"; }
mcp_completion_register_manual() { mcp_completion_manual_register "$@"; }
mcp_completion_manual_finalize() { :; }

# shellcheck source=/dev/null
. "${1:?register.sh copy required}"
