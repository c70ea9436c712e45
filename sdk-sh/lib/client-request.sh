#!/usr/bin/env bash
# shellcheck shell=bash
# The file handshake of a request to the client (elicitation, sampling). Loaded on first use
# (tool-sdk.sh).

# _mcp_client_request FUNCTION SUPPORTED REQUEST_FILE RESPONSE_FILE REQUEST_JSON TIMEOUT
#     DEFAULT_TIMEOUT UNSUPPORTED UNCONFIGURED TIMED_OUT WHAT
#   The handshake of a request to the client (elicitation, sampling): writes REQUEST_JSON to
#   REQUEST_FILE atomically and polls for the server's RESPONSE_FILE (TIMEOUT seconds, else
#   DEFAULT_TIMEOUT, else 30). Prints the answer {"action","content"}; when there is none
#   (SUPPORTED is not 1, the files are not set, cancellation, the timeout) prints its own
#   decline, error or cancel answer, warns with the message given, and returns 1.
_mcp_client_request() {
	local _mcp_fn="${1-}" _mcp_request_file="${3-}" _mcp_response_file="${4-}" _mcp_request="${5-}"
	local _mcp_timeout="${6-}" _mcp_tmp="" _mcp_i=0 _mcp_limit=0 _mcp_answer=""
	if [ "${2-}" != "1" ]; then
		_mcp_warn "${_mcp_fn}: ${8-}"
		printf '{"action":"decline","content":null}'
		return 1
	fi
	if [ -z "${_mcp_request_file}" ] || [ -z "${_mcp_response_file}" ]; then
		_mcp_warn "${_mcp_fn}: ${9-}"
		printf '{"action":"error","content":null}'
		return 1
	fi
	_mcp_is_uint "${_mcp_timeout}" || _mcp_timeout="${7-}"
	_mcp_is_uint "${_mcp_timeout}" || _mcp_timeout=30
	_mcp_limit=$((10#${_mcp_timeout} * 10))
	rm -f -- "${_mcp_response_file}"
	_mcp_tmp="${_mcp_request_file}.tmp.$$.${RANDOM}"
	if ! printf '%s' "${_mcp_request}" >"${_mcp_tmp}" 2>/dev/null || ! mv -f -- "${_mcp_tmp}" "${_mcp_request_file}"; then
		rm -f -- "${_mcp_tmp}"
		_mcp_warn "${_mcp_fn}: cannot write the ${11-request}"
		printf '{"action":"error","content":null}'
		return 1
	fi
	while [ ! -f "${_mcp_response_file}" ]; do
		if mcp_is_cancelled; then
			rm -f -- "${_mcp_request_file}"
			printf '{"action":"cancel","content":null}'
			return 1
		fi
		if [ "${_mcp_i}" -ge "${_mcp_limit}" ]; then
			rm -f -- "${_mcp_request_file}"
			_mcp_warn "${_mcp_fn}: ${10-}"
			printf '{"action":"error","content":null}'
			return 1
		fi
		sleep 0.1
		_mcp_i=$((_mcp_i + 1))
	done
	_mcp_answer="$(cat -- "${_mcp_response_file}")" || _mcp_answer=""
	rm -f -- "${_mcp_response_file}"
	[ -n "${_mcp_answer}" ] || _mcp_answer='{"action":"error","content":null}'
	printf '%s' "${_mcp_answer}"
}
