#!/usr/bin/env bash
# shellcheck shell=bash
# Rich results without hand-written JSON: content blocks (text, image, audio, resource link),
# a result made of several of them, a prompt script's messages, and a result with files
# attached as embedded resources. Pure Bash plus `base64` (or `openssl`) for files; works
# without a JSON tool. Loaded by tool-sdk.sh on first use.

# _mcp_base64_file_to VAR FILE: sets VAR to FILE's bytes in base64 on one line; returns 1
# (VAR empty) when FILE cannot be read or no encoder is installed.
_mcp_base64_file_to() {
	local _mcp_b64=""
	printf -v "${1}" '%s' ""
	if [ ! -f "${2-}" ] || [ ! -r "${2-}" ]; then
		return 1
	fi
	if command -v base64 >/dev/null 2>&1; then
		_mcp_b64="$(base64 <"${2}" | tr -d '\r\n')" || return 1
	elif command -v openssl >/dev/null 2>&1; then
		_mcp_b64="$(openssl base64 -A <"${2}")" || return 1
	else
		return 1
	fi
	printf -v "${1}" '%s' "${_mcp_b64}"
}

# _mcp_media_mime_to VAR FILE: sets VAR to the MIME type of an image or audio FILE from its
# extension (the same on every machine), else from `file --mime-type`.
_mcp_media_mime_to() {
	local _mcp_ext="${2##*/}"
	case "${_mcp_ext}" in
	*.*) _mcp_ext="$(printf '%s' "${_mcp_ext##*.}" | tr '[:upper:]' '[:lower:]')" ;;
	*) _mcp_ext="" ;;
	esac
	case "${_mcp_ext}" in
	png) printf -v "${1}" '%s' image/png ;;
	jpg | jpeg) printf -v "${1}" '%s' image/jpeg ;;
	gif) printf -v "${1}" '%s' image/gif ;;
	webp) printf -v "${1}" '%s' image/webp ;;
	svg) printf -v "${1}" '%s' image/svg+xml ;;
	bmp) printf -v "${1}" '%s' image/bmp ;;
	ico) printf -v "${1}" '%s' image/x-icon ;;
	wav) printf -v "${1}" '%s' audio/wav ;;
	mp3) printf -v "${1}" '%s' audio/mpeg ;;
	ogg | oga) printf -v "${1}" '%s' audio/ogg ;;
	flac) printf -v "${1}" '%s' audio/flac ;;
	m4a) printf -v "${1}" '%s' audio/mp4 ;;
	weba) printf -v "${1}" '%s' audio/webm ;;
	*) _mcp_detect_mime_to "${1}" "${2-}" ;;
	esac
}

# _mcp_content_media FUNCTION TYPE FILE [MIME]: prints {"type":TYPE,"data","mimeType"}.
_mcp_content_media() {
	local _mcp_fn="${1}" _mcp_type="${2}" _mcp_file="${3-}" _mcp_mime="${4-}" _mcp_data="" _mcp_qm=""
	if ! _mcp_base64_file_to _mcp_data "${_mcp_file}"; then
		if [ -f "${_mcp_file}" ] && [ -r "${_mcp_file}" ]; then
			_mcp_warn "${_mcp_fn}: neither base64 nor openssl is installed to encode ${_mcp_file}"
		else
			_mcp_warn "${_mcp_fn}: not a readable file: ${_mcp_file}"
		fi
		return 1
	fi
	[ -n "${_mcp_mime}" ] || _mcp_media_mime_to _mcp_mime "${_mcp_file}"
	_mcp_json_quote_to _mcp_qm "${_mcp_mime}"
	printf '{"type":"%s","data":"%s","mimeType":%s}' "${_mcp_type}" "${_mcp_data}" "${_mcp_qm}"
}

# mcp_content_text TEXT
#   Prints a text content block, {"type":"text","text":TEXT}. Returns 0.
mcp_content_text() {
	local _mcp_qt=""
	_mcp_json_quote_to _mcp_qt "${1-}"
	printf '{"type":"text","text":%s}' "${_mcp_qt}"
}

# mcp_content_image FILE [MIME]
#   Prints an image content block: FILE's bytes in base64, MIME from the extension (png,
#   jpg, gif, webp, svg, ...; else `file --mime-type`) unless given. Returns 1 with a
#   warning when FILE cannot be read.
mcp_content_image() {
	_mcp_content_media mcp_content_image image "${1-}" "${2-}"
}

# mcp_content_audio FILE [MIME]
#   Prints an audio content block, as mcp_content_image does (wav, mp3, ogg, flac, m4a, ...).
mcp_content_audio() {
	_mcp_content_media mcp_content_audio audio "${1-}" "${2-}"
}

# mcp_content_resource_link URI NAME [--mime TYPE] [--description TEXT] [--title TEXT] [--size BYTES]
#   Prints a resource_link content block: a resource the client may read or show, named by
#   URI, not sent inline. Returns 1 with a warning when URI or NAME is empty.
mcp_content_resource_link() {
	local _mcp_json="" _mcp_q="" _mcp_key=""
	if [ -z "${1-}" ] || [ -z "${2-}" ]; then
		_mcp_warn "mcp_content_resource_link: a URI and a name are required"
		return 1
	fi
	_mcp_json_quote_to _mcp_q "${1}"
	_mcp_json="{\"type\":\"resource_link\",\"uri\":${_mcp_q}"
	_mcp_json_quote_to _mcp_q "${2}"
	_mcp_json="${_mcp_json},\"name\":${_mcp_q}"
	shift 2
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--mime) _mcp_key=mimeType ;;
		--description) _mcp_key=description ;;
		--title) _mcp_key=title ;;
		--size)
			if _mcp_is_uint "${2-}"; then
				_mcp_json="${_mcp_json},\"size\":$((10#${2}))"
			else
				_mcp_warn "mcp_content_resource_link: --size needs a number of bytes, got '${2-}'"
			fi
			if [ "$#" -ge 2 ]; then shift 2; else shift; fi
			continue
			;;
		*)
			_mcp_warn "mcp_content_resource_link: unknown option ignored: $1"
			shift
			continue
			;;
		esac
		_mcp_json_quote_to _mcp_q "${2-}"
		_mcp_json="${_mcp_json},\"${_mcp_key}\":${_mcp_q}"
		if [ "$#" -ge 2 ]; then shift 2; else shift; fi
	done
	printf '%s}' "${_mcp_json}"
}

# mcp_result_content BLOCK...
#   Prints a CallToolResult, {"content":[BLOCK,...],"isError":false}, from content blocks
#   (the mcp_content_* helpers' output, which starts with {"type":; any other argument
#   becomes a text block). The server passes it through as the tool's result. Returns 0.
mcp_result_content() {
	local _mcp_blocks="" _mcp_block=""
	for _mcp_block in "$@"; do
		case "${_mcp_block}" in
		'{"type":'*'}') ;;
		*) _mcp_block="$(mcp_content_text "${_mcp_block}")" ;;
		esac
		_mcp_blocks="${_mcp_blocks},${_mcp_block}"
	done
	printf '{"content":[%s],"isError":false}' "${_mcp_blocks#,}"
}

# mcp_prompt_message ROLE CONTENT
#   Prints one message of a prompt script's answer, {"role":ROLE,"content":CONTENT}, on a
#   line of its own: CONTENT is a content block (an mcp_content_* helper's output, which
#   starts with {"type":) or else text. ROLE is user or assistant. Returns 1 with a warning
#   for another role.
mcp_prompt_message() {
	local _mcp_block="${2-}"
	case "${1-}" in
	user | assistant) ;;
	*)
		_mcp_warn "mcp_prompt_message: the role must be user or assistant, got '${1-}'"
		return 1
		;;
	esac
	case "${_mcp_block}" in
	'{"type":'*'}') ;;
	*) _mcp_block="$(mcp_content_text "${_mcp_block}")" ;;
	esac
	printf '{"role":"%s","content":%s}\n' "${1}" "${_mcp_block}"
}

# _mcp_detect_mime_to VAR PATH: sets VAR to PATH's MIME type from `file --mime-type`, or
# application/octet-stream when `file` is missing or says nothing useful.
_mcp_detect_mime_to() {
	local _mcp_dm_mime=""
	if command -v file >/dev/null 2>&1; then
		_mcp_dm_mime="$(file -b --mime-type -- "${2-}" 2>/dev/null)" || _mcp_dm_mime=""
	fi
	case "${_mcp_dm_mime}" in
	*/*) ;;
	*) _mcp_dm_mime="application/octet-stream" ;;
	esac
	printf -v "${1}" '%s' "${_mcp_dm_mime}"
}

# mcp_result_text_with_resource DATA [--path PATH [--mime TYPE] [--uri URI]]...
#   Attaches files to the result as embedded resources, then prints mcp_result_success DATA
#   (DATA that is not JSON is sent as a JSON string, so plain text works too).
#   Each readable regular file becomes {"path","mimeType","uri"|null} in the JSON array
#   written to MCP_TOOL_RESOURCES_FILE (the file is overwritten); paths are made absolute;
#   MIME types default to `file --mime-type` (else application/octet-stream). Unreadable or
#   non-regular paths are skipped with a warning log. Returns 0.
mcp_result_text_with_resource() {
	local _mcp_data="${1-}" _mcp_path="" _mcp_mime="" _mcp_uri="" _mcp_pending=false _mcp_entries="" _mcp_count=0
	[ "$#" -gt 0 ] && shift
	while :; do
		if [ "${_mcp_pending}" = true ] && { [ "$#" -eq 0 ] || [ "$1" = "--path" ]; }; then
			_mcp_count=$((_mcp_count + 1))
			_mcp_resource_entry_append _mcp_entries "${_mcp_path}" "${_mcp_mime}" "${_mcp_uri}"
			_mcp_pending=false
		fi
		[ "$#" -gt 0 ] || break
		case "$1" in
		--path)
			_mcp_path="${2-}"
			_mcp_mime=""
			_mcp_uri=""
			_mcp_pending=true
			;;
		--mime) _mcp_mime="${2-}" ;;
		--uri) _mcp_uri="${2-}" ;;
		*)
			mcp_log_debug "sdk" "mcp_result_text_with_resource: unknown flag ignored: $1"
			shift
			continue
			;;
		esac
		if [ "$#" -ge 2 ]; then shift 2; else shift "$#"; fi
	done
	if [ "${_mcp_count}" -gt 0 ]; then
		if [ -z "${MCP_TOOL_RESOURCES_FILE-}" ]; then
			mcp_log_warn "sdk" "mcp_result_text_with_resource: MCP_TOOL_RESOURCES_FILE not set, resources will not be embedded"
		elif ! printf '[%s]' "${_mcp_entries#,}" >"${MCP_TOOL_RESOURCES_FILE}" 2>/dev/null; then
			mcp_log_warn "sdk" "mcp_result_text_with_resource: cannot write MCP_TOOL_RESOURCES_FILE"
		fi
	fi
	_mcp_text_as_json_to _mcp_data "${_mcp_data}"
	mcp_result_success "${_mcp_data}"
}

# _mcp_resource_entry_append VAR PATH MIME URI: appends ",{path,mimeType,uri}" for one
# embedded resource to VAR, or logs why PATH is skipped.
_mcp_resource_entry_append() {
	local _mcp_path="${2-}" _mcp_mime="${3-}" _mcp_qp="" _mcp_qm="" _mcp_qu=null
	if [ -z "${_mcp_path}" ]; then
		mcp_log_debug "sdk" "mcp_result_text_with_resource: empty path, skipping"
		return 0
	fi
	if [ ! -f "${_mcp_path}" ] || [ ! -r "${_mcp_path}" ]; then
		mcp_log_warn "sdk" "mcp_result_text_with_resource: not a readable file, skipping path=${_mcp_path}"
		return 0
	fi
	[ -n "${_mcp_mime}" ] || _mcp_detect_mime_to _mcp_mime "${_mcp_path}"
	_mcp_json_quote_to _mcp_qp "$(mcp_path_normalize --logical "${_mcp_path}")"
	_mcp_json_quote_to _mcp_qm "${_mcp_mime}"
	[ -z "${4-}" ] || _mcp_json_quote_to _mcp_qu "${4}"
	printf -v "${1}" '%s,{"path":%s,"mimeType":%s,"uri":%s}' "${!1}" "${_mcp_qp}" "${_mcp_qm}" "${_mcp_qu}"
}

# _mcp_text_as_json_to VAR DATA: sets VAR to DATA when it is JSON, else to DATA as a JSON
# string (minimal mode guesses from the first character).
_mcp_text_as_json_to() {
	local _mcp_d="${2-}" _mcp_lead=""
	if [ -z "${_mcp_d}" ]; then
		:
	elif _mcp_json_ok; then
		mcp_is_valid_json "${_mcp_d}" || _mcp_json_quote_to _mcp_d "${_mcp_d}"
	else
		_mcp_lead="${_mcp_d#"${_mcp_d%%[![:space:]]*}"}"
		case "${_mcp_lead}" in
		'{'* | '['* | '"'* | -* | [0-9]* | true | false | null) ;;
		*) _mcp_json_quote_to _mcp_d "${_mcp_d}" ;;
		esac
	fi
	printf -v "${1}" '%s' "${_mcp_d}"
}
