#!/usr/bin/env bash
# shellcheck shell=bash
# Path normalisation in pure Bash (no realpath/readlink -f needed, so macOS works as is).
# Loaded by tool-sdk.sh on first use.

# _mcp_path_collapse_to VAR PATH: sets VAR to PATH made absolute against $PWD with "."
# and ".." components and repeated slashes collapsed lexically; ".." stops at "/".
_mcp_path_collapse_to() {
	local _mcp_p="${2-}" _mcp_out="" _mcp_comp=""
	[ -n "${_mcp_p}" ] || _mcp_p="."
	case "${_mcp_p}" in
	/*) ;;
	*) _mcp_p="${PWD%/}/${_mcp_p}" ;;
	esac
	_mcp_p="${_mcp_p#/}"
	while [ -n "${_mcp_p}" ]; do
		_mcp_comp="${_mcp_p%%/*}"
		case "${_mcp_p}" in
		*/*) _mcp_p="${_mcp_p#*/}" ;;
		*) _mcp_p="" ;;
		esac
		case "${_mcp_comp}" in
		'' | .) ;;
		..) _mcp_out="${_mcp_out%/*}" ;;
		*) _mcp_out="${_mcp_out}/${_mcp_comp}" ;;
		esac
	done
	printf -v "${1}" '%s' "${_mcp_out:-/}"
}

# _mcp_path_physical_to VAR PATH: like `realpath -m`: PATH made absolute with every
# symbolic link resolved, component by component; components that do not exist are kept
# lexically. After 40 links (a loop) the rest is kept as is.
_mcp_path_physical_to() {
	local _mcp_todo="${2-}" _mcp_out="" _mcp_comp="" _mcp_target="" _mcp_hops=0
	[ -n "${_mcp_todo}" ] || _mcp_todo="."
	case "${_mcp_todo}" in
	/*) ;;
	*) _mcp_todo="${PWD%/}/${_mcp_todo}" ;;
	esac
	_mcp_todo="${_mcp_todo#/}"
	while [ -n "${_mcp_todo}" ]; do
		_mcp_comp="${_mcp_todo%%/*}"
		case "${_mcp_todo}" in
		*/*) _mcp_todo="${_mcp_todo#*/}" ;;
		*) _mcp_todo="" ;;
		esac
		case "${_mcp_comp}" in
		'' | .) continue ;;
		..)
			_mcp_out="${_mcp_out%/*}"
			continue
			;;
		esac
		if [ "${_mcp_hops}" -lt 40 ] && [ -L "${_mcp_out}/${_mcp_comp}" ]; then
			_mcp_hops=$((_mcp_hops + 1))
			_mcp_target="$(readlink "${_mcp_out}/${_mcp_comp}" 2>/dev/null)" || _mcp_target=""
			if [ -n "${_mcp_target}" ]; then
				case "${_mcp_target}" in
				/*)
					_mcp_out=""
					_mcp_target="${_mcp_target#/}"
					;;
				esac
				_mcp_todo="${_mcp_target}${_mcp_todo:+/${_mcp_todo}}"
				continue
			fi
		fi
		_mcp_out="${_mcp_out}/${_mcp_comp}"
	done
	printf -v "${1}" '%s' "${_mcp_out:-/}"
}

# mcp_path_collapse PATH
#   Prints PATH made absolute against $PWD with ".", ".." and "//" collapsed lexically
#   (symbolic links are not looked at; the path need not exist). Empty PATH means ".".
#   Returns 0.
mcp_path_collapse() {
	local _mcp_result=""
	_mcp_path_collapse_to _mcp_result "${1-}"
	printf '%s' "${_mcp_result}"
}

# mcp_path_normalize [--physical|--logical] [--] PATH
#   Prints PATH as an absolute path without ".", ".." or "//". --physical (the default) also
#   resolves symbolic links like `realpath -m` (missing components are kept); --logical only
#   collapses lexically. Empty PATH means ".". Returns 0.
mcp_path_normalize() {
	local _mcp_mode=physical _mcp_result=""
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--physical) _mcp_mode=physical ;;
		--logical) _mcp_mode=logical ;;
		--)
			shift
			break
			;;
		*) break ;;
		esac
		shift
	done
	if [ "${_mcp_mode}" = physical ]; then
		_mcp_path_physical_to _mcp_result "${1-}"
	else
		_mcp_path_collapse_to _mcp_result "${1-}"
	fi
	printf '%s' "${_mcp_result}"
}

# mcp_sdk_load_path_helpers
#   Kept for 1.x tools that call it: the path helpers load when first called. Returns 0.
mcp_sdk_load_path_helpers() {
	return 0
}
