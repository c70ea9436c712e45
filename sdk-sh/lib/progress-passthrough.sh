#!/usr/bin/env bash
# shellcheck shell=bash
# mcp_run_with_progress: run a command and turn the progress it prints into MCP progress
# notifications. Loaded by tool-sdk.sh on first use.

# _mcp_rwp_activity: marks the progress stream as changed (its mtime), which the server
# counts as activity for progress-extended timeouts (docs/TOOL-CONTRACT.md), without
# writing a line. The server does not create the stream: the first touch does.
_mcp_rwp_activity() {
	if [ -n "${MCP_PROGRESS_STREAM-}" ]; then
		touch -- "${MCP_PROGRESS_STREAM}" 2>/dev/null || true
	fi
}

# _mcp_rwp_handle_line LINE PATTERN EXTRACT TOTAL DRY_RUN QUIET STDERR_FILE: one line of
# the progress source.
_mcp_rwp_handle_line() {
	local _mcp_line="${1-}" _mcp_pattern="${2-}" _mcp_extract="${3-}" _mcp_total="${4-}"
	local _mcp_dry="${5-false}" _mcp_quiet="${6-false}" _mcp_stderr_file="${7-}"
	local _mcp_pct="" _mcp_msg="" _mcp_a="" _mcp_b="" _mcp_pair="" _mcp_q=""
	local _mcp_num_re='^[0-9]+(\.[0-9]+)?$'
	if ! [[ "${_mcp_line}" =~ ${_mcp_pattern} ]]; then
		# Passed through to one place: --stderr-file when given, else the debug log.
		if [ -n "${_mcp_stderr_file}" ]; then
			printf '%s\n' "${_mcp_line}" >>"${_mcp_stderr_file}" 2>/dev/null || true
		elif [ "${_mcp_quiet}" != true ]; then
			mcp_log_debug "mcp_run_with_progress" "subprocess output: ${_mcp_line}"
		fi
		return 0
	fi
	_mcp_a="${BASH_REMATCH[1]-}"
	_mcp_b="${BASH_REMATCH[2]-}"
	case "${_mcp_extract}" in
	json)
		_mcp_pair="$(_mcp_jq_data "${_mcp_line}" -r \
			'select(.progress != null) | [(.progress | tostring), (.message // "Working...")] | @tsv' 2>/dev/null)" || _mcp_pair=""
		_mcp_pct="${_mcp_pair%%$'\t'*}"
		_mcp_msg="${_mcp_pair#*$'\t'}"
		if [ -n "${_mcp_pair}" ] && [[ "${_mcp_pct}" =~ ${_mcp_num_re} ]]; then
			_mcp_pct="${_mcp_pct%%.*}"
		else
			_mcp_pct=""
		fi
		;;
	match1)
		if ! _mcp_is_uint "${_mcp_a}"; then
			:
		elif [ -n "${_mcp_total}" ]; then
			_mcp_pct=$((10#${_mcp_a} * 100 / 10#${_mcp_total}))
		else
			_mcp_pct="${_mcp_a}"
		fi
		_mcp_msg="${_mcp_line}"
		;;
	ratio)
		if _mcp_is_uint "${_mcp_a}" && _mcp_is_uint "${_mcp_b}" && [ "$((10#${_mcp_b}))" -gt 0 ]; then
			_mcp_pct=$((10#${_mcp_a} * 100 / 10#${_mcp_b}))
		fi
		_mcp_msg="${_mcp_line}"
		;;
	esac
	# A match is activity for progress-extended timeouts even when nothing is reported: no
	# progress token, no percentage in the line, or --dry-run. A reported line is activity
	# by itself.
	if [ -z "${_mcp_pct}" ] || [ "${_mcp_dry}" = true ] || [ -z "${MCP_PROGRESS_TOKEN-}" ]; then
		_mcp_rwp_activity
	fi
	[ -n "${_mcp_pct}" ] || return 0
	if [ "${_mcp_dry}" = true ]; then
		_mcp_strip_zeros_to _mcp_pct "${_mcp_pct}"
		_mcp_json_quote_to _mcp_q "${_mcp_msg}"
		printf '{"progress":%s,"message":%s}\n' "${_mcp_pct}" "${_mcp_q}" >&2
	else
		mcp_progress "${_mcp_pct}" "${_mcp_msg}"
	fi
}

# _mcp_rwp_consume VAR FILE FINAL PATTERN EXTRACT TOTAL DRY_RUN QUIET STDERR_FILE:
# handles the lines of FILE after byte offset $VAR and advances VAR. Until FINAL is true
# only complete lines are taken, so a line written in pieces is seen whole.
_mcp_rwp_consume() {
	local _mcp_var="${1}" _mcp_file="${2}" _mcp_final="${3}" _mcp_offset=0 _mcp_chunk="" _mcp_line="" _mcp_len=0
	shift 3
	_mcp_offset="${!_mcp_var}"
	[ -f "${_mcp_file}" ] || return 0
	_mcp_chunk="$(tail -c +"$((_mcp_offset + 1))" -- "${_mcp_file}" 2>/dev/null; printf 'x')" || return 0
	_mcp_chunk="${_mcp_chunk%x}"
	if [ "${_mcp_final}" != true ]; then
		case "${_mcp_chunk}" in
		*$'\n'*) _mcp_chunk="${_mcp_chunk%$'\n'*}"$'\n' ;;
		*) return 0 ;;
		esac
	fi
	[ -n "${_mcp_chunk}" ] || return 0
	_mcp_len="$(mcp_byte_length "${_mcp_chunk}")"
	printf -v "${_mcp_var}" '%s' "$((_mcp_offset + _mcp_len))"
	while IFS= read -r _mcp_line || [ -n "${_mcp_line}" ]; do
		_mcp_line="${_mcp_line%$'\r'}"
		[ -n "${_mcp_line}" ] || continue
		_mcp_rwp_handle_line "${_mcp_line}" "$@"
	done <<EOF
${_mcp_chunk}
EOF
}

# _mcp_rwp_log_stderr FILE OFFSET_VAR FINAL QUIET STDERR_FILE: with --progress-file, the
# command's own stderr goes to STDERR_FILE when given, else (unless QUIET) the debug log.
_mcp_rwp_log_stderr() {
	# A pattern that never matches: every line is passed through as "non-progress".
	# shellcheck disable=SC2016 # a regex, not an expansion
	_mcp_rwp_consume "${2}" "${1}" "${3}" '^$(.)' json '' false "${4-false}" "${5-}"
}

# mcp_run_with_progress --pattern REGEX [--extract json|match1|ratio] [--interval SECS]
#                       [--stdout FILE] [--stderr-file FILE] [--progress-file FILE]
#                       [--total N] [--dry-run] [--quiet] -- COMMAND...
#   Runs COMMAND, watching its stderr (or --progress-file) every --interval seconds (0.2)
#   for lines matching REGEX (a Bash ERE), each turned into mcp_progress:
#     json   (default, needs the JSON tool) the line is JSON with .progress (a float is
#            truncated) and optional .message (default "Working...");
#     match1 capture group 1 is the percent, or a count scaled by 100/--total;
#     ratio  capture groups 1 and 2 are done/total.
#   Every match counts as activity for progress-extended timeouts, even when no percentage
#   can be extracted or there is no progress token. Non-matching lines go to --stderr-file
#   when given, else (unless --quiet) to the debug log; --dry-run prints
#   {"progress","message"} to stderr instead of reporting. COMMAND's stdout is printed (or
#   written to --stdout FILE) when it ends.
#   Returns COMMAND's status; 130 when the call is cancelled and COMMAND outlived the
#   server's TERM (usually the TERM ends it first: 143); 1 for bad options (missing
#   --pattern, unknown --extract, --total not a positive integer, ...).
mcp_run_with_progress() {
	local _mcp_pattern="" _mcp_extract=json _mcp_interval=0.2 _mcp_stdout="" _mcp_progress_file="" _mcp_total=""
	local _mcp_dry=false _mcp_quiet=false _mcp_stderr_out="" _mcp_dir="" _mcp_source="" _mcp_pid="" _mcp_rc=0
	local _mcp_off=0 _mcp_err_off=0 _mcp_interval_re='^[0-9]*\.?[0-9]+$' _mcp_zero_re='^[0.]+$'
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--pattern) _mcp_pattern="${2-}" ;;
		--extract) _mcp_extract="${2-}" ;;
		--interval) _mcp_interval="${2-}" ;;
		--stdout) _mcp_stdout="${2-}" ;;
		--progress-file) _mcp_progress_file="${2-}" ;;
		--total) _mcp_total="${2-}" ;;
		--stderr-file) _mcp_stderr_out="${2-}" ;;
		--dry-run | --quiet)
			[ "$1" = --dry-run ] && _mcp_dry=true || _mcp_quiet=true
			shift
			continue
			;;
		--)
			shift
			break
			;;
		*) break ;;
		esac
		if [ "$#" -ge 2 ]; then shift 2; else shift "$#"; fi
	done
	if [ -z "${_mcp_pattern}" ]; then
		_mcp_warn "mcp_run_with_progress: --pattern is required"
		return 1
	fi
	case "${_mcp_extract}" in
	json | match1 | ratio) ;;
	*)
		_mcp_warn "mcp_run_with_progress: unknown extract mode '${_mcp_extract}'"
		return 1
		;;
	esac
	if [ -n "${_mcp_total}" ] && { ! _mcp_is_uint "${_mcp_total}" || [ "$((10#${_mcp_total}))" -eq 0 ]; }; then
		_mcp_warn "mcp_run_with_progress: --total must be positive integer"
		return 1
	fi
	if ! [[ "${_mcp_interval}" =~ ${_mcp_interval_re} ]] || [[ "${_mcp_interval}" =~ ${_mcp_zero_re} ]]; then
		_mcp_warn "mcp_run_with_progress: --interval must be a positive number"
		return 1
	fi
	if [ "${_mcp_extract}" = json ] && ! _mcp_json_ok; then
		_mcp_warn "mcp_run_with_progress: MCPBASH_JSON_TOOL_BIN required for json extraction mode"
		return 1
	fi
	if [ "$#" -eq 0 ]; then
		_mcp_warn "mcp_run_with_progress: a command is required after --"
		return 1
	fi
	_mcp_dir="$(mktemp -d "${TMPDIR:-/tmp}/mcpbash-progress.XXXXXX")" || return 1
	_mcp_source="${_mcp_dir}/stderr"
	if [ -n "${_mcp_progress_file}" ]; then
		if [ -s "${_mcp_progress_file}" ]; then
			mcp_log_warn "mcp_run_with_progress" "truncating non-empty progress file: ${_mcp_progress_file}"
		fi
		: >"${_mcp_progress_file}"
		_mcp_source="${_mcp_progress_file}"
	fi
	if [ -n "${_mcp_stderr_out}" ] && ! : >"${_mcp_stderr_out}" 2>/dev/null; then
		mcp_log_warn "mcp_run_with_progress" "cannot write to stderr-file: ${_mcp_stderr_out}"
	fi
	"$@" >"${_mcp_dir}/stdout" 2>"${_mcp_dir}/stderr" &
	_mcp_pid=$!
	while kill -0 "${_mcp_pid}" 2>/dev/null; do
		if mcp_is_cancelled; then
			kill "${_mcp_pid}" 2>/dev/null || true
			wait "${_mcp_pid}" 2>/dev/null || true
			rm -rf -- "${_mcp_dir}"
			return 130
		fi
		_mcp_rwp_consume _mcp_off "${_mcp_source}" false "${_mcp_pattern}" "${_mcp_extract}" "${_mcp_total}" "${_mcp_dry}" "${_mcp_quiet}" "${_mcp_stderr_out}"
		if [ -n "${_mcp_progress_file}" ] && { [ -n "${_mcp_stderr_out}" ] || [ "${_mcp_quiet}" != true ]; }; then
			_mcp_rwp_log_stderr "${_mcp_dir}/stderr" _mcp_err_off false "${_mcp_quiet}" "${_mcp_stderr_out}"
		fi
		sleep "${_mcp_interval}"
	done
	wait "${_mcp_pid}" && _mcp_rc=0 || _mcp_rc=$?
	_mcp_rwp_consume _mcp_off "${_mcp_source}" true "${_mcp_pattern}" "${_mcp_extract}" "${_mcp_total}" "${_mcp_dry}" "${_mcp_quiet}" "${_mcp_stderr_out}"
	if [ -n "${_mcp_progress_file}" ] && { [ -n "${_mcp_stderr_out}" ] || [ "${_mcp_quiet}" != true ]; }; then
		_mcp_rwp_log_stderr "${_mcp_dir}/stderr" _mcp_err_off true "${_mcp_quiet}" "${_mcp_stderr_out}"
	fi
	if [ -n "${_mcp_stdout}" ]; then
		cp -- "${_mcp_dir}/stdout" "${_mcp_stdout}" || true
	else
		cat -- "${_mcp_dir}/stdout"
	fi
	rm -rf -- "${_mcp_dir}"
	return "${_mcp_rc}"
}
