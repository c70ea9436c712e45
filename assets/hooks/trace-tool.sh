# shellcheck shell=bash
# Sourced by bash through BASH_ENV before the first line of a Bash tool when
# MCPBASH_TRACE_TOOLS=true (mcp-bash sets BASH_ENV to this file for that one process).
# PS4 is set here, not inherited: bash ignores PS4 from the environment when run as root.
# xtrace goes to MCPBASH_TRACE_FILE through BASH_XTRACEFD on bash >= 4.1 (older bash keeps
# tracing to stderr). The BASH_ENV the tool would have had is put back (and read), and
# xtrace starts last, so the trace begins with the tool's own first line.

PS4="${MCPBASH_TRACE_PS4-+ }"
export PS4
if [ -n "${MCPBASH_TRACE_FILE-}" ] && { [ "${BASH_VERSINFO[0]}" -gt 4 ] || { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -ge 1 ]; }; }; then
	# fd 19: clear of the 3-9 that tools may use for themselves.
	if exec 19>>"${MCPBASH_TRACE_FILE}"; then
		BASH_XTRACEFD=19
		export BASH_XTRACEFD
	fi
fi
_mcp_trace_bash_env="${MCPBASH_TRACE_BASH_ENV-}"
unset MCPBASH_TRACE_BASH_ENV
if [ -n "${_mcp_trace_bash_env}" ]; then
	BASH_ENV="${_mcp_trace_bash_env}"
	export BASH_ENV
	unset _mcp_trace_bash_env
	# shellcheck source=/dev/null
	. "${BASH_ENV}"
else
	unset BASH_ENV _mcp_trace_bash_env
fi
set -x
