#!/usr/bin/env bash
# shellcheck shell=bash
# Tool configuration from an environment variable, files and defaults. Sourced by
# tool-sdk.sh.

# _mcp_config_is_json TEXT: status 0 when TEXT parses (minimal mode: starts with { or [).
_mcp_config_is_json() {
	local _mcp_re='^[[:space:]]*[{[]'
	if _mcp_json_ok; then
		_mcp_jq_data "${1-}" -e -s 'length == 1' >/dev/null 2>&1
	else
		[[ "${1-}" =~ ${_mcp_re} ]]
	fi
}

# _mcp_config_merge_to VAR BASE OVERLAY: sets VAR to BASE + OVERLAY (shallow merge of
# objects; a non-object OVERLAY only replaces an empty BASE); minimal mode: OVERLAY
# replaces BASE.
_mcp_config_merge_to() {
	local _mcp_cm_merged=""
	if _mcp_json_ok; then
		_mcp_cm_merged="$(_mcp_jq_data "${2-}"$'\n'"${3-}" -c -s '
			if (.[0] | type) == "object" and (.[1] | type) == "object" then .[0] + .[1]
			elif .[0] == {} then .[1]
			else .[0] end' 2>/dev/null)" || _mcp_cm_merged=""
		[ -n "${_mcp_cm_merged}" ] || _mcp_cm_merged="${2-}"
	else
		_mcp_cm_merged="${3-}"
	fi
	printf -v "${1}" '%s' "${_mcp_cm_merged}"
}

# _mcp_config_read_file_to VAR PATH: sets VAR to PATH's JSON content. Status 1 when PATH is
# not a readable file (silently) or not JSON (warning log).
_mcp_config_read_file_to() {
	local _mcp_content=""
	[ -f "${2-}" ] && [ -r "${2-}" ] || return 1
	_mcp_content="$(cat -- "${2}")" || return 1
	if ! _mcp_config_is_json "${_mcp_content}"; then
		mcp_log_warn "config" "Invalid JSON in file: ${2}"
		return 1
	fi
	printf -v "${1}" '%s' "${_mcp_content}"
}

# mcp_config_load [--env VAR] [--file PATH] [--example PATH] [--defaults JSON]
#   Loads the tool's configuration into MCP_CONFIG_JSON (exported). Sources, highest
#   precedence first: the variable VAR (JSON text, or the path of a JSON file), --file,
#   --example, --defaults. Objects are merged shallowly onto the defaults (minimal mode: the
#   highest-precedence source wins whole). Missing files are skipped; invalid JSON is
#   skipped with a warning log. Returns 0 when a source or non-empty defaults were used,
#   else 1 with a warning log.
mcp_config_load() {
	local _mcp_env_var="" _mcp_file="" _mcp_example="" _mcp_defaults='{}' _mcp_merged="" _mcp_src="" _mcp_value="" _mcp_loaded=0
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--env) _mcp_env_var="${2-}" ;;
		--file) _mcp_file="${2-}" ;;
		--example) _mcp_example="${2-}" ;;
		--defaults) _mcp_defaults="${2-}" ;;
		*)
			shift
			continue
			;;
		esac
		if [ "$#" -ge 2 ]; then shift 2; else shift "$#"; fi
	done
	if [ "${_mcp_defaults}" != '{}' ] && ! _mcp_config_is_json "${_mcp_defaults}"; then
		mcp_log_warn "config" "Invalid JSON in --defaults, using {}"
		_mcp_defaults='{}'
	fi
	_mcp_merged="${_mcp_defaults}"
	for _mcp_src in "${_mcp_example}" "${_mcp_file}"; do
		if [ -n "${_mcp_src}" ] && _mcp_config_read_file_to _mcp_value "${_mcp_src}"; then
			_mcp_config_merge_to _mcp_merged "${_mcp_merged}" "${_mcp_value}"
			_mcp_loaded=$((_mcp_loaded + 1))
			mcp_log_debug "config" "Loaded config file: ${_mcp_src}"
		fi
	done
	if [ -n "${_mcp_env_var}" ]; then
		_mcp_value="${!_mcp_env_var-}"
		if [ -z "${_mcp_value}" ]; then
			:
		elif _mcp_config_is_json "${_mcp_value}"; then
			_mcp_config_merge_to _mcp_merged "${_mcp_merged}" "${_mcp_value}"
			_mcp_loaded=$((_mcp_loaded + 1))
			mcp_log_debug "config" "Loaded config from env var: ${_mcp_env_var} (JSON)"
		elif [ -f "${_mcp_value}" ]; then
			_mcp_src="${_mcp_value}"
			if _mcp_config_read_file_to _mcp_value "${_mcp_src}"; then
				_mcp_config_merge_to _mcp_merged "${_mcp_merged}" "${_mcp_value}"
				_mcp_loaded=$((_mcp_loaded + 1))
				mcp_log_debug "config" "Loaded config from env var: ${_mcp_env_var} (file: ${_mcp_src})"
			fi
		else
			mcp_log_warn "config" "Env var ${_mcp_env_var} is neither valid JSON nor a file path"
		fi
	fi
	MCP_CONFIG_JSON="${_mcp_merged}"
	export MCP_CONFIG_JSON
	if [ "${_mcp_loaded}" -gt 0 ] || [ "${_mcp_defaults}" != '{}' ]; then
		return 0
	fi
	mcp_log_warn "config" "No configuration sources loaded"
	return 1
}

# mcp_config_get PATH [--default VALUE]
#   Prints the value at jq PATH of MCP_CONFIG_JSON: strings raw, other values compact JSON.
#   A missing or null value prints VALUE, or returns 1 without a default. Minimal mode
#   understands only top-level `.key` paths with string, number or boolean values.
mcp_config_get() {
	local _mcp_path="${1-}" _mcp_default="" _mcp_has_default=false _mcp_out="" _mcp_key=""
	local _mcp_config="${MCP_CONFIG_JSON-}" _mcp_key_re='^\.([a-zA-Z_][a-zA-Z0-9_]*)$' _mcp_val_re=""
	[ "$#" -gt 0 ] && shift
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--default)
			_mcp_has_default=true
			_mcp_default="${2-}"
			if [ "$#" -ge 2 ]; then shift 2; else shift "$#"; fi
			;;
		*) shift ;;
		esac
	done
	if [ -z "${_mcp_path}" ]; then
		mcp_log_warn "config" "mcp_config_get: path required"
		return 1
	fi
	[ -n "${_mcp_config}" ] || _mcp_config='{}'
	if _mcp_json_ok; then
		# "n" = missing/null; "v<value>" otherwise (false and "" are values, not defaults).
		_mcp_out="$(_mcp_jq_data "${_mcp_config}" -r "(${_mcp_path}) as \$v
			| if \$v == null then \"n\" else \"v\" + (\$v | if type == \"string\" then . else tojson end) end" 2>/dev/null)" || _mcp_out="n"
		case "${_mcp_out}" in
		v*)
			printf '%s' "${_mcp_out#v}"
			return 0
			;;
		esac
	elif [[ "${_mcp_path}" =~ ${_mcp_key_re} ]]; then
		_mcp_key="${BASH_REMATCH[1]}"
		for _mcp_val_re in "\"${_mcp_key}\"[[:space:]]*:[[:space:]]*\"([^\"]*)\"" \
			"\"${_mcp_key}\"[[:space:]]*:[[:space:]]*(-?[0-9]+\.?[0-9]*)" \
			"\"${_mcp_key}\"[[:space:]]*:[[:space:]]*(true|false)"; do
			if [[ "${_mcp_config}" =~ ${_mcp_val_re} ]]; then
				printf '%s' "${BASH_REMATCH[1]}"
				return 0
			fi
		done
	fi
	if [ "${_mcp_has_default}" = true ]; then
		printf '%s' "${_mcp_default}"
		return 0
	fi
	return 1
}
