#!/usr/bin/env bash
# shellcheck shell=bash source-path=SCRIPTDIR
#
# Helpers 1.x gave project hooks (server.d/policy.sh, register.sh, health-checks.sh), which
# it sourced into the server itself: logging (mcp_logging_*), JSON extraction
# (mcp_json_extract_*, mcp_json_escape_string, ...) and mcp_runtime_is_minimal_mode. The hook
# drivers in hooks/ source this file before the project's hook.
#
# 1.x documented these helpers only by their use; where their exact behaviour was not
# written down, each follows its evident meaning (docs/SDK.md, "Helpers for project hooks").
#
# Log records go to MCP_LOG_STREAM as notifications/message lines (the server forwards them
# to its log when the hook ends); without a stream they are printed to stderr.
# Bash 3.2 compatible; sets no shell options; safe under `set -euo pipefail`; safe to source twice.

if [ -n "${_MCPBASH_HOOK_HELPERS_LOADED-}" ]; then
	return 0
fi
_MCPBASH_HOOK_HELPERS_LOADED=1

_MCPBASH_HOOK_SDK_DIR="${BASH_SOURCE[0]-}"
case "${_MCPBASH_HOOK_SDK_DIR}" in
*/*) _MCPBASH_HOOK_SDK_DIR="${_MCPBASH_HOOK_SDK_DIR%/*}" ;;
*) _MCPBASH_HOOK_SDK_DIR="." ;;
esac
# shellcheck source=lib/core.sh
. "${_MCPBASH_HOOK_SDK_DIR}/lib/core.sh"
# shellcheck source=lib/numbers.sh
. "${_MCPBASH_HOOK_SDK_DIR}/lib/numbers.sh"
# shellcheck source=lib/jq-service.sh
. "${_MCPBASH_HOOK_SDK_DIR}/lib/jq-service.sh"
# shellcheck source=lib/notify.sh
. "${_MCPBASH_HOOK_SDK_DIR}/lib/notify.sh"

# _mcp_hook_level_rank_to VAR LEVEL: sets VAR to LEVEL's RFC 5424 rank (debug 10 ... emergency
# 70; any case, and "true" or 1 for debug), 20 (info) for anything else.
_mcp_hook_level_rank_to() {
	local _mcp_rank=20 _mcp_name=""
	_mcp_log_level_to _mcp_name "${2-}"
	case "${_mcp_name:-${2-}}" in
	debug | [Tt][Rr][Uu][Ee] | 1) _mcp_rank=10 ;;
	notice) _mcp_rank=25 ;;
	warning) _mcp_rank=30 ;;
	error) _mcp_rank=40 ;;
	critical) _mcp_rank=50 ;;
	alert) _mcp_rank=60 ;;
	emergency) _mcp_rank=70 ;;
	esac
	printf -v "${1}" '%s' "${_mcp_rank}"
}

# mcp_logging_is_enabled LEVEL
#   Returns 0 when LEVEL is at or above the server's log level (MCPBASH_LOG_LEVEL, default
#   info), 1 otherwise.
mcp_logging_is_enabled() {
	local _mcp_want=0 _mcp_current=0 _mcp_level=""
	_mcp_log_level_to _mcp_level "${1-}"
	_mcp_hook_level_rank_to _mcp_want "${_mcp_level:-info}"
	# No subshell and tr per call: the rank is taken case-insensitively.
	_mcp_hook_level_rank_to _mcp_current "${MCPBASH_LOG_LEVEL-info}"
	[ "${_mcp_want}" -ge "${_mcp_current}" ]
}

# mcp_logging_emit LEVEL LOGGER MESSAGE
#   Logs MESSAGE (text) from LOGGER (default mcp-bash) at LEVEL (default info) to the
#   server's log. Returns 0.
mcp_logging_emit() {
	local _mcp_level="" _mcp_logger="${2:-mcp-bash}" _mcp_data=""
	_mcp_log_level_to _mcp_level "${1-}"
	[ -n "${_mcp_level}" ] || _mcp_level=info
	if [ -z "${MCP_LOG_STREAM-}" ]; then
		printf 'mcp-bash: %s: %s: %s\n' "${_mcp_level}" "${_mcp_logger}" "${3-}" >&2
		return 0
	fi
	_mcp_json_quote_to _mcp_data "${3-}"
	mcp_log "${_mcp_level}" "${_mcp_logger}" "${_mcp_data}"
}

# mcp_logging_debug|info|notice|warning|error|critical|alert|emergency LOGGER MESSAGE
#   mcp_logging_emit at that level. Return 0.
mcp_logging_debug() { mcp_logging_emit debug "${1-}" "${2-}"; }
mcp_logging_info() { mcp_logging_emit info "${1-}" "${2-}"; }
mcp_logging_notice() { mcp_logging_emit notice "${1-}" "${2-}"; }
mcp_logging_warning() { mcp_logging_emit warning "${1-}" "${2-}"; }
mcp_logging_error() { mcp_logging_emit error "${1-}" "${2-}"; }
mcp_logging_critical() { mcp_logging_emit critical "${1-}" "${2-}"; }
mcp_logging_alert() { mcp_logging_emit alert "${1-}" "${2-}"; }
mcp_logging_emergency() { mcp_logging_emit emergency "${1-}" "${2-}"; }

# mcp_runtime_is_minimal_mode
#   Returns 0 in minimal mode (no JSON processor for hooks, or MCPBASH_MODE=minimal), 1 otherwise.
mcp_runtime_is_minimal_mode() {
	! _mcp_json_ok
}

# mcp_json_quote_text STRING / mcp_json_escape_string STRING
#   Print STRING as a quoted JSON string literal (no trailing newline). Return 0.
mcp_json_quote_text() { _mcp_json_quote "${1-}"; }
mcp_json_escape_string() { _mcp_json_quote "${1-}"; }

# mcp_json_trim STRING
#   Prints STRING without leading and trailing whitespace (spaces, tabs, newlines). Returns 0.
mcp_json_trim() {
	local _mcp_s="${1-}"
	_mcp_s="${_mcp_s#"${_mcp_s%%[![:space:]]*}"}"
	_mcp_s="${_mcp_s%"${_mcp_s##*[![:space:]]}"}"
	printf '%s' "${_mcp_s}"
}

# mcp_json_has_key JSON KEY
#   Returns 0 when JSON is an object holding KEY, 1 otherwise (or without a JSON processor).
mcp_json_has_key() {
	[ -n "${2-}" ] && _mcp_json_ok || return 1
	# shellcheck disable=SC2016 # $key is jq's variable
	printf '%s' "${1-}" | _mcp_jq -e --arg key "${2}" 'type == "object" and has($key)' >/dev/null 2>&1
}

# mcp_json_extract_optional JSON MODE FILTER DEFAULT [LOGGER] [CONTEXT]
#   Prints FILTER applied to JSON with the JSON processor in MODE (-r raw, -c compact; default
#   -r). Prints DEFAULT instead when there is no JSON processor or the JSON or filter fails;
#   a failure is logged as a warning from LOGGER when LOGGER and CONTEXT are given. Returns 0.
mcp_json_extract_optional() {
	local _mcp_mode="${2:--r}" _mcp_out=""
	if ! _mcp_json_ok; then
		printf '%s' "${4-}"
		return 0
	fi
	if _mcp_out="$(printf '%s' "${1-}" | _mcp_jq "${_mcp_mode}" "${3:-.}" 2>/dev/null)"; then
		printf '%s' "${_mcp_out}"
		return 0
	fi
	if [ -n "${5-}" ] && [ -n "${6-}" ]; then
		mcp_logging_warning "${5}" "${6}: JSON parse failed; using default"
	fi
	printf '%s' "${4-}"
}

# mcp_json_extract_file_required FILE MODE FILTER [CONTEXT]
#   Prints FILTER applied to the JSON in FILE (MODE as above). Returns 1, with
#   "CONTEXT: ..." on stderr when CONTEXT is given, when there is no JSON processor or the
#   file or filter fails.
mcp_json_extract_file_required() {
	local _mcp_out=""
	if ! _mcp_json_ok; then
		[ -z "${4-}" ] || _mcp_warn "${4}: JSON tooling unavailable"
		return 1
	fi
	if ! _mcp_out="$(_mcp_jq "${2:--r}" "${3:-.}" "${1-}" 2>/dev/null)"; then
		[ -z "${4-}" ] || _mcp_warn "${4}: JSON parse failed"
		return 1
	fi
	printf '%s' "${_mcp_out}"
}
