#!/usr/bin/env bash
# shellcheck shell=bash
# The pure-Bash JSON validator of minimal mode (no JSON processor). Loaded on first use
# (tool-sdk.sh).

# _mcp_json_check_tokens TEXT: feeds the JSON tokens of TEXT (a stretch between strings, or
# a lone " standing for a string) to the state machine of _mcp_json_check_bash, whose
# _mcp_want and _mcp_stack it updates. Status 1 at the first token out of place.
_mcp_json_check_tokens() {
	local _mcp_sk="${1-}" _mcp_tok="" _mcp_top=""
	local _mcp_num_re='^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$'
	local -a _mcp_toks=()
	_mcp_sk=${_mcp_sk//$'\r'/" "}
	_mcp_sk=${_mcp_sk//"{"/" { "}
	_mcp_sk=${_mcp_sk//"}"/" } "}
	_mcp_sk=${_mcp_sk//"["/" [ "}
	_mcp_sk=${_mcp_sk//"]"/" ] "}
	_mcp_sk=${_mcp_sk//","/" , "}
	_mcp_sk=${_mcp_sk//":"/" : "}
	IFS=$' \t\n' read -r -d '' -a _mcp_toks <<<"${_mcp_sk}" || true
	for _mcp_tok in ${_mcp_toks[@]+"${_mcp_toks[@]}"}; do
		_mcp_top="${_mcp_stack#"${_mcp_stack%?}"}"
		case "${_mcp_want}:${_mcp_tok}" in
		next:,)
			case "${_mcp_top}" in
			"{") _mcp_want=key ;;
			"[") _mcp_want=value ;;
			*) return 1 ;;
			esac
			;;
		next:"]" | value_or_close:"]")
			[ "${_mcp_top}" = "[" ] || return 1
			_mcp_stack="${_mcp_stack%?}"
			_mcp_want=next
			;;
		next:"}" | key_or_close:"}")
			[ "${_mcp_top}" = "{" ] || return 1
			_mcp_stack="${_mcp_stack%?}"
			_mcp_want=next
			;;
		colon::) _mcp_want=value ;;
		'key:"' | 'key_or_close:"') _mcp_want='colon' ;;
		value:"{" | value_or_close:"{")
			_mcp_stack="${_mcp_stack}{"
			_mcp_want=key_or_close
			;;
		value:"[" | value_or_close:"[")
			_mcp_stack="${_mcp_stack}["
			_mcp_want=value_or_close
			;;
		'value:"' | 'value_or_close:"' | value:true | value_or_close:true | value:false | value_or_close:false | value:null | value_or_close:null)
			_mcp_want=next
			;;
		value:* | value_or_close:*)
			[[ "${_mcp_tok}" =~ ${_mcp_num_re} ]] || return 1
			_mcp_want=next
			;;
		*) return 1 ;;
		esac
	done
	return 0
}

# _mcp_json_check_bash TEXT: status 0 when TEXT is exactly one JSON value (surrounding
# whitespace allowed), checked in pure Bash for minimal mode, where there is no JSON
# processor; 1 otherwise. Strings may not hold raw control characters (DEL included).
# Linear time: TEXT is split at its quotes; each string is checked with one regex and the
# stretches between strings are tokenised for a small state machine.
_mcp_json_check_bash() {
	local _mcp_part="" _mcp_acc="" _mcp_bs="" _mcp_in_str=false _mcp_i=0 _mcp_n=0 _mcp_dq='"'
	local _mcp_want=value _mcp_stack=""
	local _mcp_chars_re='^([^"\\[:cntrl:]]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*$'
	local -a _mcp_parts=()
	# The here-string adds a newline, so the last part always lies outside any string.
	IFS='"' read -r -d '' -a _mcp_parts <<<"${1-}" || true
	_mcp_n="${#_mcp_parts[@]}"
	while [ "${_mcp_i}" -lt "${_mcp_n}" ]; do
		_mcp_part="${_mcp_parts[${_mcp_i}]}"
		_mcp_i=$((_mcp_i + 1))
		if [ "${_mcp_in_str}" = false ]; then
			_mcp_json_check_tokens "${_mcp_part}" || return 1
			_mcp_in_str=true
			_mcp_acc=""
			continue
		fi
		# Inside a string, which must end at a quote before the text does.
		[ "${_mcp_i}" -lt "${_mcp_n}" ] || return 1
		_mcp_acc="${_mcp_acc}${_mcp_part}"
		_mcp_bs="${_mcp_acc##*[!\\]}"
		if [ $((${#_mcp_bs} % 2)) -eq 1 ]; then
			# An odd run of backslashes: the quote is escaped, the string goes on.
			_mcp_acc="${_mcp_acc}${_mcp_dq}"
			continue
		fi
		[[ "${_mcp_acc}" =~ ${_mcp_chars_re} ]] || return 1
		_mcp_json_check_tokens "${_mcp_dq}" || return 1
		_mcp_in_str=false
	done
	[ "${_mcp_want}" = next ] && [ -z "${_mcp_stack}" ]
}
