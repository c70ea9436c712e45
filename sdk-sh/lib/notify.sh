#!/usr/bin/env bash
# shellcheck shell=bash
# Progress, logging, cancellation, debug log and retries. Loaded by tool-sdk.sh on first use.
# Lines are appended to the stream files with a single printf each (docs/TOOL-CONTRACT.md);
# the server forwards them to the client while the tool runs.

# mcp_is_cancelled
#   Returns 0 when the client cancelled this call (the cancel marker file exists), else 1.
#   The marker is MCP_CANCEL_FILE, else MCP_TOOL_CANCELLATION_FILE. A plain file test: no
#   process is started, so it is cheap in tight loops.
mcp_is_cancelled() {
	local _mcp_marker="${MCP_CANCEL_FILE:-${MCP_TOOL_CANCELLATION_FILE-}}"
	[ -n "${_mcp_marker}" ] && [ -e "${_mcp_marker}" ]
}

# mcp_progress PERCENT MESSAGE [TOTAL]
#   Appends a notifications/progress line to MCP_PROGRESS_STREAM. PERCENT that is not an
#   integer becomes 0; it is clamped to 0..100. TOTAL is a whole number or omitted (null).
#   When the request carried no progressToken the client gets nothing, but the line still
#   counts as activity for progressExtendsTimeout. A no-op when there is no stream. Returns 0.
mcp_progress() {
	local _mcp_pct="${1-}" _mcp_total_in="${3-}" _mcp_token="null" _mcp_msg="" _mcp_total="null"
	if [ -z "${MCP_PROGRESS_STREAM-}" ]; then
		return 0
	fi
	if _mcp_is_uint "${_mcp_pct}"; then
		if [ "${#_mcp_pct}" -gt 3 ]; then
			_mcp_strip_zeros_to _mcp_pct "${_mcp_pct}"
			[ "${#_mcp_pct}" -gt 3 ] && _mcp_pct=100
		fi
		_mcp_pct=$((10#${_mcp_pct}))
		[ "${_mcp_pct}" -gt 100 ] && _mcp_pct=100
	else
		_mcp_pct=0
	fi
	if [ -z "${MCP_PROGRESS_TOKEN-}" ]; then
		: # no token: the server sends no notification for this line
	elif _mcp_is_json_number "${MCP_PROGRESS_TOKEN}"; then
		_mcp_token="${MCP_PROGRESS_TOKEN}"
	else
		_mcp_json_quote_to _mcp_token "${MCP_PROGRESS_TOKEN}"
	fi
	if _mcp_is_uint "${_mcp_total_in}"; then
		_mcp_strip_zeros_to _mcp_total "${_mcp_total_in}"
	fi
	_mcp_json_quote_to _mcp_msg "${2-}"
	printf '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%s,"total":%s,"message":%s}}\n' \
		"${_mcp_token}" "${_mcp_pct}" "${_mcp_total}" "${_mcp_msg}" >>"${MCP_PROGRESS_STREAM}" 2>/dev/null || true
}

# _mcp_log_level_to VAR LEVEL: sets VAR to the RFC 5424 level name for LEVEL (any case), or
# to "" when LEVEL is not one.
_mcp_log_level_to() {
	local _mcp_l=""
	case "${2-}" in
	[Dd][Ee][Bb][Uu][Gg]) _mcp_l=debug ;;
	[Ii][Nn][Ff][Oo]) _mcp_l=info ;;
	[Nn][Oo][Tt][Ii][Cc][Ee]) _mcp_l=notice ;;
	[Ww][Aa][Rr][Nn][Ii][Nn][Gg]) _mcp_l=warning ;;
	[Ee][Rr][Rr][Oo][Rr]) _mcp_l=error ;;
	[Cc][Rr][Ii][Tt][Ii][Cc][Aa][Ll]) _mcp_l=critical ;;
	[Aa][Ll][Ee][Rr][Tt]) _mcp_l=alert ;;
	[Ee][Mm][Ee][Rr][Gg][Ee][Nn][Cc][Yy]) _mcp_l=emergency ;;
	esac
	printf -v "${1}" '%s' "${_mcp_l}"
}

# mcp_log LEVEL LOGGER DATA_JSON
#   Appends a notifications/message line {level, logger, data} to MCP_LOG_STREAM. LEVEL is
#   case-insensitive; an unknown level becomes "info" with a warning on stderr. DATA_JSON is
#   inserted as is and must be valid JSON (empty means null). No stream: no-op. Returns 0.
mcp_log() {
	local _mcp_level="" _mcp_logger="" _mcp_data="${3-}"
	_mcp_log_level_to _mcp_level "${1-}"
	if [ -z "${_mcp_level}" ]; then
		_mcp_warn "mcp_log: invalid level '${1-}', defaulting to 'info'"
		_mcp_level=info
	fi
	if [ -z "${MCP_LOG_STREAM-}" ]; then
		return 0
	fi
	[ -n "${_mcp_data}" ] || _mcp_data=null
	_mcp_json_quote_to _mcp_logger "${2-}"
	printf '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"%s","logger":%s,"data":%s}}\n' \
		"${_mcp_level}" "${_mcp_logger}" "${_mcp_data}" >>"${MCP_LOG_STREAM}" 2>/dev/null || true
}

# mcp_log_debug LOGGER MESSAGE
#   mcp_log at level debug with MESSAGE as a JSON string. Returns 0.
mcp_log_debug() {
	local _mcp_data=""
	_mcp_json_quote_to _mcp_data "${2-}"
	mcp_log debug "${1-}" "${_mcp_data}"
}

# mcp_log_info LOGGER MESSAGE
#   mcp_log at level info with MESSAGE as a JSON string. Returns 0.
mcp_log_info() {
	local _mcp_data=""
	_mcp_json_quote_to _mcp_data "${2-}"
	mcp_log info "${1-}" "${_mcp_data}"
}

# mcp_log_warn LOGGER MESSAGE
#   mcp_log at level warning with MESSAGE as a JSON string. Returns 0.
mcp_log_warn() {
	local _mcp_data=""
	_mcp_json_quote_to _mcp_data "${2-}"
	mcp_log warning "${1-}" "${_mcp_data}"
}

# mcp_log_error LOGGER MESSAGE
#   mcp_log at level error with MESSAGE as a JSON string. Returns 0.
mcp_log_error() {
	local _mcp_data=""
	_mcp_json_quote_to _mcp_data "${2-}"
	mcp_log error "${1-}" "${_mcp_data}"
}

# mcp_debug MESSAGE...
#   Appends "[HH:MM:SS] MESSAGE" to MCPBASH_DEBUG_LOG (kept for debugging, never sent to the
#   client). No-op when MCPBASH_DEBUG_LOG is unset. Returns 0.
mcp_debug() {
	local _mcp_ts=""
	if [ -z "${MCPBASH_DEBUG_LOG-}" ]; then
		return 0
	fi
	_mcp_ts="$(date +%H:%M:%S 2>/dev/null)" || _mcp_ts=""
	printf '[%s] %s\n' "${_mcp_ts:-??:??:??}" "$*" >>"${MCPBASH_DEBUG_LOG}" 2>/dev/null || true
}

# mcp_with_retry MAX_ATTEMPTS BASE_DELAY [--] COMMAND...
#   Runs COMMAND until it succeeds or MAX_ATTEMPTS runs are used. Exit statuses 0, 1 and 2
#   (success, error, usage) are returned at once; others are retried after BASE_DELAY
#   seconds, doubled each time, plus 0-50% jitter. Each retry is logged (mcp_log_debug and
#   mcp_debug). Returns COMMAND's last status; 1 for an invalid MAX_ATTEMPTS or BASE_DELAY,
#   2 when COMMAND is missing.
mcp_with_retry() {
	local _mcp_max="${1-}" _mcp_delay="${2-}" _mcp_attempt=1 _mcp_rc=0 _mcp_sleep=""
	local _mcp_delay_re='^[0-9]+\.?[0-9]*$'
	if ! _mcp_is_uint "${_mcp_max}"; then
		_mcp_warn "mcp_with_retry: max_attempts must be a positive integer"
		return 1
	fi
	if ! [[ "${_mcp_delay}" =~ ${_mcp_delay_re} ]]; then
		_mcp_warn "mcp_with_retry: base_delay must be a number"
		return 1
	fi
	shift 2
	if [ "${1-}" = "--" ]; then
		shift
	fi
	if [ "$#" -eq 0 ]; then
		_mcp_warn "mcp_with_retry: a command is required after --"
		return 2
	fi
	while :; do
		"$@" && _mcp_rc=0 || _mcp_rc=$?
		if [ "${_mcp_rc}" -le 2 ] || [ "${_mcp_attempt}" -ge "${_mcp_max}" ]; then
			return "${_mcp_rc}"
		fi
		_mcp_sleep="$(awk -v d="${_mcp_delay}" -v s="$$${_mcp_attempt}" 'BEGIN { srand(s + 0); printf "%.3f", d + d * rand() * 0.5 }')" || _mcp_sleep="${_mcp_delay}"
		mcp_log_debug "retry" "Attempt ${_mcp_attempt}/${_mcp_max} failed (exit ${_mcp_rc}), retrying in ${_mcp_sleep}s"
		mcp_debug "mcp_with_retry: attempt ${_mcp_attempt}/${_mcp_max} failed (exit ${_mcp_rc}), retrying in ${_mcp_sleep}s"
		sleep "${_mcp_sleep}"
		_mcp_delay="$(awk -v d="${_mcp_delay}" 'BEGIN { printf "%.3f", d * 2 }')" || true
		_mcp_attempt=$((_mcp_attempt + 1))
	done
}
