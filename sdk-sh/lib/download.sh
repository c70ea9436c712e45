#!/usr/bin/env bash
# shellcheck shell=bash
# SSRF-safe HTTPS downloads. The fetch and every host/address rule live in the https
# resource provider (providers/https.sh, which uses lib/url-policy.sh); these helpers give
# tools a flag-based API, retries and a JSON answer. Loaded by tool-sdk.sh on first use.

# _mcp_download_result STATUS TYPE MESSAGE [LOCATION]: records and prints the JSON answer.
# The parts stay in _MCPBASH_DL_* so mcp_download_safe_or_fail needs no JSON parser.
_mcp_download_result() {
	local _mcp_qm="" _mcp_ql=""
	_MCPBASH_DL_SUCCESS="${1-false}" _MCPBASH_DL_TYPE="${2-}" _MCPBASH_DL_MESSAGE="${3-}"
	_mcp_json_quote_to _mcp_qm "${3-}"
	if [ -n "${4-}" ]; then
		_mcp_json_quote_to _mcp_ql "${4}"
		printf '{"success":false,"error":{"type":"%s","message":%s,"location":%s}}' "${2-}" "${_mcp_qm}" "${_mcp_ql}"
	else
		printf '{"success":false,"error":{"type":"%s","message":%s}}' "${2-}" "${_mcp_qm}"
	fi
}

# _mcp_download_positive VALUE: status 0 when VALUE is an integer greater than zero.
_mcp_download_positive() {
	_mcp_is_uint "${1-}" || return 1
	case "${1}" in
	*[1-9]*) return 0 ;;
	esac
	return 1
}

# _mcp_download_provider_to VAR: sets VAR to the https provider script, or "".
_mcp_download_provider_to() {
	local _mcp_dp_c="" _mcp_dp_found=""
	for _mcp_dp_c in "${MCPBASH_HOME:+${MCPBASH_HOME}/providers/https.sh}" \
		"${_MCPBASH_SDK_DIR}/../providers/https.sh" \
		"${_MCPBASH_SDK_DIR}/../assets/providers/https.sh"; do
		if [ -n "${_mcp_dp_c}" ] && [ -f "${_mcp_dp_c}" ]; then
			_mcp_dp_found="${_mcp_dp_c}"
			break
		fi
	done
	printf -v "${1}" '%s' "${_mcp_dp_found}"
}

# _mcp_download_final_http STDERR_FILE: status 0 when the provider failed on an HTTP status
# that another attempt would not change (4xx other than 408 Request Timeout and 429 Too Many
# Requests).
_mcp_download_final_http() {
	local _mcp_line=""
	while IFS= read -r _mcp_line || [ -n "${_mcp_line}" ]; do
		case "${_mcp_line%$'\r'}" in
		*"HTTP status 408" | *"HTTP status 429") return 1 ;;
		*"HTTP status 4"[0-9][0-9]) return 0 ;;
		esac
	done <"${1-}"
	return 1
}

# mcp_download_safe --url URL --out PATH [--allow HOST]... [--deny HOST]... [--max-bytes N]
#                   [--timeout SECS] [--user-agent UA] [--retry|--retries N]
#                   [--retry-delay SECS]
#   Downloads an https URL to PATH under the https provider's SSRF rules: an allow list is
#   required (--allow, else MCPBASH_HTTPS_ALLOW_HOSTS or MCPBASH_HTTPS_ALLOW_ALL=true; an
#   explicit --allow list is not widened by MCPBASH_HTTPS_ALLOW_ALL), deny entries (--deny
#   plus MCPBASH_HTTPS_DENY_HOSTS) always win, private addresses are refused, redirects are
#   not followed. --max-bytes and --timeout (at most 60 s) must be positive. Network errors
#   are retried automatically: N attempts in all (default 3), waiting --retry-delay seconds
#   (default 1.0) before the second, doubling each time, plus 0-50% jitter; each retry is
#   logged (mcp_log_debug, mcp_debug). Other failures are final.
#   Prints {"success":true,"bytes":N,"path":P} or {"success":false,"error":{"type","message"
#   [,"location"]}} with type invalid_params | invalid_url | provider_unavailable |
#   host_blocked | network_error | size_exceeded | redirect | provider_error | write_error.
#   Always returns 0 (safe under set -e).
mcp_download_safe() {
	local _mcp_url="" _mcp_out="" _mcp_max="" _mcp_timeout="" _mcp_ua="" _mcp_retry=3 _mcp_retry_flag="--retry" _mcp_delay="1.0"
	local _mcp_allow="" _mcp_deny="${MCPBASH_HTTPS_DENY_HOSTS-}" _mcp_allow_given=false
	local _mcp_allow_all="${MCPBASH_HTTPS_ALLOW_ALL-}" _mcp_max_given=false _mcp_timeout_given=false
	local _mcp_provider="" _mcp_tmp="" _mcp_err="" _mcp_rc=0
	_MCPBASH_DL_SUCCESS=false _MCPBASH_DL_TYPE="" _MCPBASH_DL_MESSAGE="" _MCPBASH_DL_PATH=""
	# Each step prints the failure result itself and returns 1; the helpers below work on
	# these locals (Bash functions see their caller's locals).
	_mcp_download_parse "$@" || return 0
	_mcp_download_check || return 0
	_mcp_download_prepare || return 0
	_mcp_download_attempts
	_mcp_download_report
	rm -f -- "${_mcp_tmp}" "${_mcp_err}"
	return 0
}

# _mcp_download_parse ARGS...: mcp_download_safe's flags into its locals.
_mcp_download_parse() {
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--url) _mcp_url="${2-}" ;;
		--out) _mcp_out="${2-}" ;;
		--allow)
			_mcp_allow="${_mcp_allow:+${_mcp_allow},}${2-}"
			_mcp_allow_given=true
			;;
		--deny) _mcp_deny="${_mcp_deny:+${_mcp_deny},}${2-}" ;;
		--max-bytes)
			_mcp_max="${2-}"
			_mcp_max_given=true
			;;
		--timeout)
			_mcp_timeout="${2-}"
			_mcp_timeout_given=true
			;;
		--user-agent) _mcp_ua="${2-}" ;;
		--retry | --retries)
			_mcp_retry="${2-}"
			_mcp_retry_flag="$1"
			;;
		--retry-delay) _mcp_delay="${2-}" ;;
		-*)
			_mcp_download_result false invalid_params "Unknown option: $1"
			return 1
			;;
		*)
			_mcp_download_result false invalid_params "Unexpected argument: $1"
			return 1
			;;
		esac
		if [ "$#" -ge 2 ]; then shift 2; else shift "$#"; fi
	done
}

# _mcp_download_check: the flags' values (a flag given with 0 or nothing is an error, not a
# silent fall back to the default), then a provider and curl to run it with.
_mcp_download_check() {
	local _mcp_delay_re='^[0-9]*\.?[0-9]+$'
	if [ -z "${_mcp_url}" ]; then _mcp_download_result false invalid_url "--url is required" && return 1; fi
	if [ -z "${_mcp_out}" ]; then _mcp_download_result false invalid_params "--out is required" && return 1; fi
	case "${_mcp_url}" in
	https://*) ;;
	*) _mcp_download_result false invalid_url "URL must use https://" && return 1 ;;
	esac
	if [ "${_mcp_max_given}" = true ] && ! _mcp_download_positive "${_mcp_max}"; then
		_mcp_download_result false invalid_params "--max-bytes must be a positive integer" && return 1
	fi
	if [ "${_mcp_timeout_given}" = true ]; then
		_mcp_download_positive "${_mcp_timeout}" || { _mcp_download_result false invalid_params "--timeout must be a positive integer" && return 1; }
		_mcp_strip_zeros_to _mcp_timeout "${_mcp_timeout}"
		if [ "${#_mcp_timeout}" -gt 2 ] || [ "${_mcp_timeout}" -gt 60 ]; then
			_mcp_download_result false invalid_params "--timeout cannot exceed 60 seconds" && return 1
		fi
	fi
	if ! _mcp_download_positive "${_mcp_retry}"; then
		_mcp_download_result false invalid_params "${_mcp_retry_flag} must be a positive integer" && return 1
	fi
	_mcp_strip_zeros_to _mcp_retry "${_mcp_retry}"
	if ! [[ "${_mcp_delay}" =~ ${_mcp_delay_re} ]]; then
		_mcp_download_result false invalid_params "--retry-delay must be a number (e.g., 0.5, 1, 2.0)" && return 1
	fi
	_mcp_download_provider_to _mcp_provider
	if [ -z "${_mcp_provider}" ]; then
		_mcp_download_result false provider_unavailable "HTTPS provider not found" && return 1
	fi
	if ! command -v curl >/dev/null 2>&1; then
		_mcp_download_result false provider_unavailable "curl is required for HTTPS downloads" && return 1
	fi
}

# _mcp_download_prepare: the allow list in force, the User-Agent, and the two temp files.
_mcp_download_prepare() {
	# An explicit --allow list is what the tool asked for: allow-all from the environment
	# must not widen it. Without --allow the environment decides (allow list or allow-all).
	if [ "${_mcp_allow_given}" = true ]; then
		_mcp_allow_all=false
	else
		_mcp_allow="${MCPBASH_HTTPS_ALLOW_HOSTS-}"
	fi
	[ -n "${_mcp_ua}" ] || _mcp_ua="mcpbash/$(_mcp_framework_version) (tool-sdk)"
	# The temp file sits beside the destination so the final move is an atomic rename.
	case "${_mcp_out}" in
	*/*) _mcp_tmp="${_mcp_out%/*}" ;;
	*) _mcp_tmp="." ;;
	esac
	_mcp_tmp="$(mktemp "${_mcp_tmp:-/}/.mcpbash-download.XXXXXX" 2>/dev/null)" || _mcp_tmp=""
	_mcp_err="$(mktemp "${TMPDIR:-/tmp}/mcpbash-download-err.XXXXXX" 2>/dev/null)" || _mcp_err=""
	if [ -z "${_mcp_tmp}" ] || [ -z "${_mcp_err}" ]; then
		rm -f -- "${_mcp_tmp}" "${_mcp_err}"
		_mcp_download_result false write_error "Could not create a temporary file next to the output path"
		return 1
	fi
}

# _mcp_download_attempts: runs the provider until it succeeds or fails for good; leaves its
# exit status in _mcp_rc and its stderr in the _mcp_err file.
_mcp_download_attempts() {
	local _mcp_attempt=1 _mcp_sleep=""
	while :; do
		_mcp_rc=0
		MCPBASH_HTTPS_ALLOW_HOSTS="${_mcp_allow}" MCPBASH_HTTPS_DENY_HOSTS="${_mcp_deny}" \
			MCPBASH_HTTPS_ALLOW_ALL="${_mcp_allow_all}" \
			MCPBASH_HTTPS_MAX_BYTES="${_mcp_max:-${MCPBASH_HTTPS_MAX_BYTES-}}" \
			MCPBASH_HTTPS_TIMEOUT="${_mcp_timeout:-${MCPBASH_HTTPS_TIMEOUT-}}" \
			MCPBASH_HTTPS_USER_AGENT="${_mcp_ua}" \
			bash "${_mcp_provider}" "${_mcp_url}" >"${_mcp_tmp}" 2>"${_mcp_err}" || _mcp_rc=$?
		# Only network failures are worth another try; policy, size and redirects are final,
		# and so is an HTTP client error (4xx), except 408 and 429, which ask for a retry.
		if [ "${_mcp_rc}" -ne 5 ] || [ "${_mcp_attempt}" -ge "${_mcp_retry}" ] || _mcp_download_final_http "${_mcp_err}"; then
			return 0
		fi
		_mcp_sleep="$(awk -v d="${_mcp_delay}" -v s="$$${_mcp_attempt}" 'BEGIN { srand(s + 0); printf "%.3f", d + d * rand() * 0.5 }')" || _mcp_sleep="${_mcp_delay}"
		mcp_log_debug "mcp_download_safe" "Attempt ${_mcp_attempt}/${_mcp_retry} failed (network error), retrying in ${_mcp_sleep}s"
		mcp_debug "mcp_download_safe: attempt ${_mcp_attempt}/${_mcp_retry} failed (network error), retrying in ${_mcp_sleep}s"
		sleep "${_mcp_sleep}" 2>/dev/null || true
		_mcp_delay="$(awk -v d="${_mcp_delay}" 'BEGIN { printf "%.3f", d * 2 }')" || true
		_mcp_attempt=$((_mcp_attempt + 1))
	done
}

# _mcp_download_report: the provider's exit status (_mcp_rc) and stderr as the JSON result;
# on success the temp file becomes the output path.
_mcp_download_report() {
	local _mcp_first="" _mcp_detail="" _mcp_bytes=0 _mcp_q=""
	# The redirect target: the first "redirect:" line of the provider's stderr.
	while IFS= read -r _mcp_first || [ -n "${_mcp_first}" ]; do
		case "${_mcp_first}" in
		redirect:*) break ;;
		esac
		_mcp_first=""
	done <"${_mcp_err}"
	_mcp_first="${_mcp_first%$'\r'}"
	_mcp_detail="$(head -c 200 "${_mcp_err}" 2>/dev/null | tr '\n\t\r' '   ' | tr -d '[:cntrl:]')" || _mcp_detail=""
	_mcp_detail="${_mcp_detail%"${_mcp_detail##*[![:space:]]}"}"
	case "${_mcp_rc}" in
	0)
		if mv -f -- "${_mcp_tmp}" "${_mcp_out}" 2>/dev/null; then
			_mcp_bytes="$(wc -c <"${_mcp_out}" | tr -d '[:space:]')"
			_MCPBASH_DL_SUCCESS=true _MCPBASH_DL_PATH="${_mcp_out}"
			_mcp_json_quote_to _mcp_q "${_mcp_out}"
			printf '{"success":true,"bytes":%s,"path":%s}' "${_mcp_bytes:-0}" "${_mcp_q}"
			return 0
		fi
		_mcp_download_result false write_error "Could not write to output path"
		;;
	4) _mcp_download_result false host_blocked "Host blocked by policy${_mcp_detail:+: ${_mcp_detail#https provider: }}" ;;
	5) _mcp_download_result false network_error "Network request failed${_mcp_detail:+: ${_mcp_detail#https provider: }}" ;;
	6) _mcp_download_result false size_exceeded "Response exceeds max-bytes limit" ;;
	7)
		case "${_mcp_first}" in
		redirect:?*) _mcp_download_result false redirect "URL redirects - use canonical URL or add target to allowlist" "${_mcp_first#redirect:}" ;;
		*) _mcp_download_result false redirect "URL redirects but location unavailable" ;;
		esac
		;;
	*) _mcp_download_result false provider_error "Provider failed (exit ${_mcp_rc})${_mcp_detail:+: ${_mcp_detail}}" ;;
	esac
}

# mcp_download_safe_or_fail (same flags as mcp_download_safe)
#   Prints the output path on success; otherwise ends the call with -32602
#   "Download failed (<type>): <message>" via mcp_fail_invalid_args (exits).
mcp_download_safe_or_fail() {
	mcp_download_safe "$@" >/dev/null
	if [ "${_MCPBASH_DL_SUCCESS-false}" != true ]; then
		mcp_fail_invalid_args "Download failed (${_MCPBASH_DL_TYPE:-unknown}): ${_MCPBASH_DL_MESSAGE:-Download failed}"
	fi
	printf '%s' "${_MCPBASH_DL_PATH}"
}

# _mcp_framework_version: the mcp-bash version for user agents.
_mcp_framework_version() {
	local _mcp_ver="${MCPBASH_FRAMEWORK_VERSION-}"
	if [ -z "${_mcp_ver}" ] && [ -n "${MCPBASH_HOME-}" ] && [ -r "${MCPBASH_HOME}/VERSION" ]; then
		IFS= read -r _mcp_ver <"${MCPBASH_HOME}/VERSION" || true
	fi
	printf '%s' "${_mcp_ver:-unknown}"
}
