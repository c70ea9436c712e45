#!/usr/bin/env bash
# shellcheck shell=bash
# MCP Apps (interactive UI) helpers. Loaded by tool-sdk.sh on first use.
#
# A tool shows a view when its directory has a ui/ (index.html or ui.meta.json): the server
# lists it as ui://<server>/<tool> and puts _meta.ui.resourceUri on the tool. The host renders
# the view and hands it the tool's result; these helpers shape that result and build view
# HTML from the server's templates. docs/UI.md has the whole picture.

# mcp_client_supports_ui
#   Status 0 when the client renders MCP Apps views: MCPBASH_CLIENT_SUPPORTS_UI is 1, or
#   $MCPBASH_STATE_DIR/extensions.ui.support holds 1 (the server writes both). Status 1
#   otherwise (run-tool: set MCPBASH_CLIENT_SUPPORTS_UI=1 to try the UI path).
mcp_client_supports_ui() {
	local _mcp_ui_flag=""
	[ "${MCPBASH_CLIENT_SUPPORTS_UI-}" = "1" ] && return 0
	[ -n "${MCPBASH_STATE_DIR-}" ] && [ -f "${MCPBASH_STATE_DIR}/extensions.ui.support" ] || return 1
	IFS= read -r _mcp_ui_flag <"${MCPBASH_STATE_DIR}/extensions.ui.support" || true
	[ "${_mcp_ui_flag}" = "1" ]
}

# _mcp_ui_object_to VAR JSON: sets VAR to JSON as an object for structuredContent (which MCP
# requires to be an object): objects as they are, arrays as {"items":[...]} (what the
# data-table template reads), other values as {"value":...}; empty or null gives "".
# Full mode checks JSON with the JSON tool (invalid: status 1); minimal mode goes by the
# first character.
_mcp_ui_object_to() {
	local _mcp_uo_in="${2-}" _mcp_uo_out=""
	case "${_mcp_uo_in}" in
	"" | null)
		printf -v "${1}" '%s' ""
		return 0
		;;
	esac
	if _mcp_json_ok; then
		_mcp_uo_out="$(printf '%s' "${_mcp_uo_in}" | _mcp_jq -c -s 'if length != 1 then error("one JSON value expected") else .[0] end
			| if . == null then "" elif type == "object" then . elif type == "array" then {items: .} else {value: .} end' 2>/dev/null)" || return 1
		[ "${_mcp_uo_out}" = '""' ] && _mcp_uo_out=""
	else
		case "${_mcp_uo_in}" in
		"{"*) _mcp_uo_out="${_mcp_uo_in}" ;;
		"["*) _mcp_uo_out="{\"items\":${_mcp_uo_in}}" ;;
		*) _mcp_uo_out="{\"value\":${_mcp_uo_in}}" ;;
		esac
	fi
	printf -v "${1}" '%s' "${_mcp_uo_out}"
}

# _mcp_ui_meta_to VAR JSON: sets VAR to JSON when it is one object (full mode checks it with
# the JSON tool, minimal mode by its first character); status 1 otherwise.
_mcp_ui_meta_to() {
	local _mcp_um_out=""
	if _mcp_json_ok; then
		_mcp_um_out="$(printf '%s' "${2-}" | _mcp_jq -c -s 'if length == 1 and (.[0] | type) == "object" then .[0] else error("not an object") end' 2>/dev/null)" || return 1
	else
		case "${2-}" in
		"{"*) _mcp_um_out="${2}" ;;
		*) return 1 ;;
		esac
	fi
	printf -v "${1}" '%s' "${_mcp_um_out}"
}

# _mcp_ui_result TEXT [DATA_JSON] [META_JSON]: prints {content:[{type:"text",text}],
# structuredContent?, isError:false, _meta?}. Bad DATA or META prints an isError result.
_mcp_ui_result() {
	local _mcp_ur_text="" _mcp_ur_data="" _mcp_ur_meta="" _mcp_ur_extra=""
	_mcp_json_quote_to _mcp_ur_text "${1-}"
	if ! _mcp_ui_object_to _mcp_ur_data "${2-}"; then
		_mcp_emit_error_result '{"type":"internal_error","message":"Invalid JSON data passed to a UI result helper"}' "Invalid JSON data passed to a UI result helper"
		return 0
	fi
	[ -z "${_mcp_ur_data}" ] || _mcp_ur_extra=",\"structuredContent\":${_mcp_ur_data}"
	case "${3-}" in
	"" | null) ;;
	*)
		if ! _mcp_ui_meta_to _mcp_ur_meta "${3}"; then
			_mcp_emit_error_result '{"type":"internal_error","message":"The _meta passed to a UI result helper must be a JSON object"}' "The _meta passed to a UI result helper must be a JSON object"
			return 0
		fi
		_mcp_ur_extra="${_mcp_ur_extra},\"_meta\":${_mcp_ur_meta}"
		;;
	esac
	printf '{"content":[{"type":"text","text":%s}]%s,"isError":false}\n' "${_mcp_ur_text}" "${_mcp_ur_extra}"
}

# mcp_result_with_ui URI TEXT [DATA_JSON] [META_JSON]
#   Prints the CallToolResult of a tool with a view. URI is ignored (MCP Apps declares the
#   view in the tool's metadata, not in results; kept for 1.x callers). When the client
#   renders views: TEXT as the text content (what the model reads), DATA_JSON as
#   structuredContent (what the view renders; arrays become {"items":[...]}, other
#   non-objects {"value":...}) and META_JSON as the result's _meta (for the view only).
#   Otherwise TEXT alone. Returns 0.
mcp_result_with_ui() {
	if mcp_client_supports_ui; then
		_mcp_ui_result "${2-}" "${3-}" "${4-}"
	else
		_mcp_ui_result "${2-}"
	fi
}

# mcp_result_with_ui_data URI TEXT DATA_JSON [META_JSON]
#   mcp_result_with_ui with the data required: empty DATA_JSON prints an isError result.
mcp_result_with_ui_data() {
	if [ -z "${3-}" ]; then
		_mcp_emit_error_result '{"type":"internal_error","message":"mcp_result_with_ui_data needs DATA_JSON"}' "mcp_result_with_ui_data needs DATA_JSON"
		return 0
	fi
	mcp_result_with_ui "$@"
}

# _mcp_ui_template NAME CONFIG_JSON: prints the HTML of the server's UI template NAME, made
# by the mcp-bash running this tool (MCPBASH_BIN, set by the server; else mcp-bash on PATH).
_mcp_ui_template() {
	local _mcp_ut_bin="${MCPBASH_BIN:-mcp-bash}"
	if ! command -v "${_mcp_ut_bin}" >/dev/null 2>&1; then
		_mcp_warn "mcp-bash UI: cannot run ${_mcp_ut_bin} to render the ${1-} template (set MCPBASH_BIN)"
		return 1
	fi
	printf '%s' "${2-}" | "${_mcp_ut_bin}" ui-template "${1-}" --config -
}

# _mcp_ui_comma_list_to VAR TEXT: sets VAR to the JSON array of the comma-separated items of
# TEXT (strings, surrounding spaces dropped, empty items left out).
_mcp_ui_comma_list_to() {
	local _mcp_ul_rest="${2-}" _mcp_ul_item="" _mcp_ul_out="" _mcp_ul_q=""
	while [ -n "${_mcp_ul_rest}" ]; do
		_mcp_ul_item="${_mcp_ul_rest%%,*}"
		case "${_mcp_ul_rest}" in
		*,*) _mcp_ul_rest="${_mcp_ul_rest#*,}" ;;
		*) _mcp_ul_rest="" ;;
		esac
		_mcp_ul_item="${_mcp_ul_item#"${_mcp_ul_item%%[![:space:]]*}"}"
		_mcp_ul_item="${_mcp_ul_item%"${_mcp_ul_item##*[![:space:]]}"}"
		[ -n "${_mcp_ul_item}" ] || continue
		_mcp_json_quote_to _mcp_ul_q "${_mcp_ul_item}"
		_mcp_ul_out="${_mcp_ul_out:+${_mcp_ul_out},}${_mcp_ul_q}"
	done
	printf -v "${1}" '[%s]' "${_mcp_ul_out}"
}

# _mcp_ui_field_to VAR SPEC: sets VAR to the form field object of NAME:TYPE[:OPT1,OPT2,...].
_mcp_ui_field_to() {
	local _mcp_uf_spec="${2-}" _mcp_uf_name="" _mcp_uf_type="text" _mcp_uf_opts="" _mcp_uf_q="" _mcp_uf_t=""
	local _mcp_uf_list="" _mcp_uf_options=""
	_mcp_uf_name="${_mcp_uf_spec%%:*}"
	case "${_mcp_uf_spec}" in
	*:*)
		_mcp_uf_type="${_mcp_uf_spec#*:}"
		case "${_mcp_uf_type}" in
		*:*)
			_mcp_uf_opts="${_mcp_uf_type#*:}"
			_mcp_uf_type="${_mcp_uf_type%%:*}"
			;;
		esac
		;;
	esac
	[ -n "${_mcp_uf_type}" ] || _mcp_uf_type="text"
	_mcp_json_quote_to _mcp_uf_q "${_mcp_uf_name}"
	_mcp_json_quote_to _mcp_uf_t "${_mcp_uf_type}"
	if [ -n "${_mcp_uf_opts}" ]; then
		_mcp_ui_comma_list_to _mcp_uf_list "${_mcp_uf_opts}"
		_mcp_uf_options=",\"options\":${_mcp_uf_list}"
	fi
	printf -v "${1}" '{"name":%s,"type":%s%s}' "${_mcp_uf_q}" "${_mcp_uf_t}" "${_mcp_uf_options}"
}

# mcp_ui_form --title TITLE --field NAME:TYPE[:OPT1,OPT2] ... --submit-tool TOOL
#             [--description TEXT] [--submit-label TEXT]
#   Prints the HTML of a `form` view: one input per --field (types text, email, number,
#   date, textarea, select with its options, checkbox; the label is NAME title-cased). On
#   submit the view calls TOOL with the values as arguments. Status 1 (and a warning) when
#   the template cannot be rendered or an option is unknown.
mcp_ui_form() {
	local _mcp_fm_title="" _mcp_fm_tool="" _mcp_fm_fields="" _mcp_fm_field="" _mcp_fm_extra="" _mcp_fm_q=""
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--title | --field | --submit-tool | --description | --submit-label)
			[ "$#" -ge 2 ] || {
				_mcp_warn "mcp_ui_form: $1 needs a value"
				return 1
			}
			case "$1" in
			--title) _mcp_fm_title="$2" ;;
			--submit-tool) _mcp_fm_tool="$2" ;;
			--field)
				_mcp_ui_field_to _mcp_fm_field "$2"
				_mcp_fm_fields="${_mcp_fm_fields:+${_mcp_fm_fields},}${_mcp_fm_field}"
				;;
			--description)
				_mcp_json_quote_to _mcp_fm_q "$2"
				_mcp_fm_extra="${_mcp_fm_extra},\"description\":${_mcp_fm_q}"
				;;
			--submit-label)
				_mcp_json_quote_to _mcp_fm_q "$2"
				_mcp_fm_extra="${_mcp_fm_extra},\"submitLabel\":${_mcp_fm_q}"
				;;
			esac
			shift 2
			;;
		*)
			_mcp_warn "mcp_ui_form: unknown option $1"
			return 1
			;;
		esac
	done
	_mcp_json_quote_to _mcp_fm_title "${_mcp_fm_title:-Form}"
	_mcp_json_quote_to _mcp_fm_tool "${_mcp_fm_tool}"
	_mcp_ui_template form "{\"title\":${_mcp_fm_title},\"fields\":[${_mcp_fm_fields}],\"submitTool\":${_mcp_fm_tool}${_mcp_fm_extra}}"
}

# mcp_ui_table --columns A,B,C [--title TITLE] [--data ROWS_JSON | --data -]
#   Prints the HTML of a `data-table` view with those columns (sortable; label = key) and
#   title (default "Data"). The rows come from the tool result the host hands the view;
#   --data embeds initial rows (a JSON array, or - to read it from stdin). Status 1 (and a
#   warning) when the template cannot be rendered or an option is unknown.
mcp_ui_table() {
	local _mcp_tb_columns="" _mcp_tb_title="Data" _mcp_tb_data="" _mcp_tb_cols="" _mcp_tb_col="" _mcp_tb_q=""
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--columns | --title | --data)
			[ "$#" -ge 2 ] || {
				_mcp_warn "mcp_ui_table: $1 needs a value"
				return 1
			}
			case "$1" in
			--columns) _mcp_tb_columns="$2" ;;
			--title) _mcp_tb_title="$2" ;;
			--data) _mcp_tb_data="$2" ;;
			esac
			shift 2
			;;
		*)
			_mcp_warn "mcp_ui_table: unknown option $1"
			return 1
			;;
		esac
	done
	[ "${_mcp_tb_data}" != "-" ] || _mcp_tb_data="$(cat)"
	while [ -n "${_mcp_tb_columns}" ]; do
		_mcp_tb_col="${_mcp_tb_columns%%,*}"
		case "${_mcp_tb_columns}" in
		*,*) _mcp_tb_columns="${_mcp_tb_columns#*,}" ;;
		*) _mcp_tb_columns="" ;;
		esac
		[ -n "${_mcp_tb_col}" ] || continue
		_mcp_json_quote_to _mcp_tb_q "${_mcp_tb_col}"
		_mcp_tb_cols="${_mcp_tb_cols:+${_mcp_tb_cols},}{\"key\":${_mcp_tb_q},\"label\":${_mcp_tb_q},\"sortable\":true}"
	done
	_mcp_json_quote_to _mcp_tb_title "${_mcp_tb_title}"
	_mcp_ui_template data-table "{\"title\":${_mcp_tb_title},\"columns\":[${_mcp_tb_cols}]${_mcp_tb_data:+,\"rows\":${_mcp_tb_data}}}"
}

# mcp_tool_meta_with_ui URI [VISIBILITY]
#   Prints {"ui":{"resourceUri":URI,"visibility":[...]}} for a tool's _meta. VISIBILITY is a
#   comma list of "model" (the model may call the tool) and "app" (the view may), default
#   "model,app"; surrounding spaces are dropped.
mcp_tool_meta_with_ui() {
	local _mcp_tm_uri="" _mcp_tm_list=""
	_mcp_json_quote_to _mcp_tm_uri "${1-}"
	_mcp_ui_comma_list_to _mcp_tm_list "${2:-model,app}"
	printf '{"ui":{"resourceUri":%s,"visibility":%s}}\n' "${_mcp_tm_uri}" "${_mcp_tm_list}"
}
