#!/usr/bin/env bash
# shellcheck shell=bash
# The client of the server's warm built-in jq (src/json/jq-service-protocol.ts describes the
# wire format). On hosts without jq or gojq the server sets MCPBASH_JQ_SERVICE=HOST:PORT:TOKEN,
# and a jq run costs a connection over bash's /dev/tcp instead of starting the mcp-bash binary.
# Loaded by tool-sdk.sh on first use, and sourced by hook-helpers.sh and the built-in jq's
# wrapper script.

# _mcp_jq_service ARGS...: runs jq ARGS on the warm built-in jq, with this shell's stdin
# (read only when jq reads input), stdout, stderr and jq's exit status.
_mcp_jq_service() {
	_mcp_jq_service_run R "" "$@"
}

# _mcp_jq_service_run R "" ARGS... | D TEXT ARGS...: one jq run on the service; D sends TEXT
# as jq's input inside the request, R sends stdin (only if jq asks for it). When the service
# cannot be reached, runs the per-call built-in jq instead, so the answer is the same.
# A subshell: its descriptors, options and variables never touch the caller's.
_mcp_jq_service_run() (
	set +eux +o pipefail
	_mcp_s_kind="${1-R}"
	_mcp_s_text="${2-}"
	shift 2
	_mcp_s_addr="${MCPBASH_JQ_SERVICE-}"
	_mcp_s_host="${_mcp_s_addr%%:*}"
	_mcp_s_addr="${_mcp_s_addr#*:}"
	_mcp_s_port="${_mcp_s_addr%%:*}"
	_mcp_s_token="${_mcp_s_addr#*:}"
	if ! { exec 5<>"/dev/tcp/${_mcp_s_host}/${_mcp_s_port}"; } 2>/dev/null; then
		_mcp_jq_service_fallback "${_mcp_s_kind}" "${_mcp_s_text}" "$@"
	fi
	printf 'MCPJQ1\0%s\0%s\0%s\0%s\0' "${_mcp_s_token}" "${_mcp_s_kind}" "${PWD}" "$#" >&5
	if [ "$#" -gt 0 ]; then
		printf '%s\0' "$@" >&5
	fi
	if [ "${_mcp_s_kind}" = "D" ]; then
		printf '%s\0' "${_mcp_s_text}" >&5
	fi
	_mcp_s_reply=""
	IFS= read -r _mcp_s_reply <&5
	case "${_mcp_s_reply}" in
	"S "*)
		exec 6<>"/dev/tcp/${_mcp_s_host}/${_mcp_s_port}" || exit 2
		printf 'MCPJQ1\0%s\0I\0%s\0' "${_mcp_s_token}" "${_mcp_s_reply#S }" >&6
		cat >&6
		exec 6>&-
		IFS= read -r _mcp_s_reply <&5
		;;
	"R "*) ;;
	*)
		# Refused before anything was read: the token or the service is gone.
		exec 5>&-
		_mcp_jq_service_fallback "${_mcp_s_kind}" "${_mcp_s_text}" "$@"
		;;
	esac
	# "R <status> <stderr lines> <stderr ends with a newline> <S|L>"
	# shellcheck disable=SC2086 # split into its words on purpose
	set -- ${_mcp_s_reply:-R 2 0 1 L}
	_mcp_s_status="${2:-2}" _mcp_s_lines="${3:-0}" _mcp_s_newline="${4:-1}" _mcp_s_mode="${5:-L}"
	_mcp_s_i=0
	while [ "${_mcp_s_i}" -lt "${_mcp_s_lines}" ]; do
		_mcp_s_i=$((_mcp_s_i + 1))
		_mcp_s_line=""
		IFS= read -r _mcp_s_line <&5
		if [ "${_mcp_s_i}" -eq "${_mcp_s_lines}" ] && [ "${_mcp_s_newline}" = "0" ]; then
			printf '%s' "${_mcp_s_line}" >&2
		else
			printf '%s\n' "${_mcp_s_line}" >&2
		fi
	done
	if [ "${_mcp_s_mode}" = "S" ]; then
		_mcp_s_out=""
		IFS= read -r -d '' _mcp_s_out <&5
		printf '%s' "${_mcp_s_out}"
	else
		cat <&5
	fi
	exit "${_mcp_s_status}"
)

# _mcp_jq_service_fallback KIND TEXT ARGS...: the same run on MCPBASH_JSON_TOOL_BIN with the
# service turned off (the built-in jq's wrapper then starts `mcp-bash jq`). Never returns.
_mcp_jq_service_fallback() {
	local _mcp_f_kind="${1-R}" _mcp_f_text="${2-}"
	shift 2
	if [ "${_mcp_f_kind}" = "D" ]; then
		printf '%s' "${_mcp_f_text}" | MCPBASH_JQ_SERVICE="" "${MCPBASH_JSON_TOOL_BIN:?}" "$@"
		exit
	fi
	MCPBASH_JQ_SERVICE="" exec "${MCPBASH_JSON_TOOL_BIN:?}" "$@"
}
