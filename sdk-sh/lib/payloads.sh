#!/usr/bin/env bash
# shellcheck shell=bash
# The whole arguments and request _meta as JSON text, and reading _meta with a filter (the
# payload variables and files are described in args.sh). Loaded by tool-sdk.sh on first use.

# _mcp_payload_print KIND: prints the args (KIND=args) or _meta (KIND=meta) JSON text,
# `{}` when there is none.
_mcp_payload_print() {
	local _mcp_x=0 _mcp_file="" _mcp_inline="" _mcp_default='{}'
	_mcp_xtrace_pause
	if [ "${1-}" = "meta" ]; then
		_mcp_file="${MCP_TOOL_META_FILE-}"
		_mcp_inline="${MCP_TOOL_META_JSON:-${_mcp_default}}"
	else
		_mcp_file="${MCP_TOOL_ARGS_FILE-}"
		_mcp_inline="${MCP_TOOL_ARGS_JSON:-${_mcp_default}}"
	fi
	if [ -n "${_mcp_file}" ] && [ -f "${_mcp_file}" ]; then
		cat -- "${_mcp_file}"
	else
		printf '%s' "${_mcp_inline}"
	fi
	_mcp_xtrace_restore "${_mcp_x}"
}

# mcp_args_raw
#   Prints the arguments object as JSON text (`{}` when the call had none). Returns 0.
mcp_args_raw() {
	_mcp_payload_print args
}

# mcp_meta_raw
#   Prints the request's _meta object as JSON text (`{}` when absent). Returns 0.
mcp_meta_raw() {
	_mcp_payload_print meta
}

# mcp_meta_get FILTER
#   Like mcp_args_get, over the request's _meta.
mcp_meta_get() {
	_mcp_payload_query meta mcp_meta_get "${1-}"
}
