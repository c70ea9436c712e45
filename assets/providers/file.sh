#!/usr/bin/env bash
# Built-in resource provider for file:// URIs.
#
#   file.sh URI      prints the file's bytes, exactly as on disk
#
# Exit status (provider contract): 0 ok; 2 outside the allowed roots (or a symbolic link);
# 3 not found, not a regular file or unreadable; 4 not a file:// URI.
#
# The URI is percent-decoded (RFC 8089/3986), so file:///tmp/My%20Notes.txt names
# "/tmp/My Notes.txt"; 1.x URIs written without encoding still work (the literal path is
# tried when the decoded one does not exist). file://localhost/path is file:///path;
# relative forms (file://./resources/x.txt) resolve against the working directory (the
# project root); Windows drive paths (C:/x, C:\x) map to MSYS form (/c/x).
#
# Allowed roots: MCP_RESOURCES_ROOTS (colon-separated) else MCPBASH_RESOURCES_DIR else
# MCPBASH_PROJECT_ROOT; with none the provider refuses everything (fails closed). The server
# always sets MCP_RESOURCES_ROOTS: the operator's value, else the resources directory plus
# the session's configured MCP roots (client roots, MCPBASH_ROOTS, config/roots.json). Roots
# that do not exist are ignored. Containment is checked on physical paths (symlinks
# resolved) with literal prefix comparison, so glob characters in roots are not patterns.
set -euo pipefail

uri="${1-}"
case "${uri}" in
file://*) ;;
*)
	printf '%s\n' "file provider requires a file:// URI" >&2
	exit 4
	;;
esac

# percent_decode TEXT: prints TEXT with %XX sequences decoded; status 1 for %00.
percent_decode() {
	local rest="${1-}" out="" hex="" char=""
	while :; do
		case "${rest}" in
		*%*) ;;
		*) break ;;
		esac
		out="${out}${rest%%\%*}"
		rest="${rest#*%}"
		hex="${rest:0:2}"
		case "${hex}" in
		00) return 1 ;;
		[0-9A-Fa-f][0-9A-Fa-f])
			printf -v char '%b' "\\x${hex}"
			out="${out}${char}"
			rest="${rest:2}"
			;;
		*) out="${out}%" ;;
		esac
	done
	printf '%s' "${out}${rest}"
}

# to_local_path RAW: the file path named by the part of the URI after file://.
to_local_path() {
	local path="${1-}"
	path="${path//\\//}"
	case "${path}" in
	localhost/*) path="${path#localhost}" ;;
	esac
	case "${path}" in
	/[A-Za-z]:/* | /[A-Za-z]:) path="${path#/}" ;;
	esac
	case "${path}" in
	[A-Za-z]:/* | [A-Za-z]:)
		local drive="${path:0:1}"
		drive="$(printf '%s' "${drive}" | tr '[:upper:]' '[:lower:]')"
		path="/${drive}${path:2}"
		;;
	esac
	printf '%s' "${path}"
}

# physical_dir DIR: prints DIR with symlinks resolved; status 1 when it is not a directory.
physical_dir() {
	(cd -P -- "${1}" 2>/dev/null && pwd -P)
}

# within ROOT PATH: status 0 when PATH is ROOT or below it (literal prefix comparison).
within() {
	local root="${1}" path="${2}"
	[ "${root}" = "/" ] && return 0
	[ "${path}" = "${root}" ] && return 0
	[ "${path:0:$((${#root} + 1))}" = "${root}/" ]
}

raw="${uri#file://}"
decoded=""
if ! decoded="$(percent_decode "${raw}")"; then
	printf '%s\n' "file provider: invalid percent-encoding in URI" >&2
	exit 4
fi
path="$(to_local_path "${decoded}")"
literal_path="$(to_local_path "${raw}")"
if [ ! -e "${path}" ] && [ ! -L "${path}" ] && { [ -e "${literal_path}" ] || [ -L "${literal_path}" ]; }; then
	path="${literal_path}"
fi
if [ -z "${path}" ]; then
	printf '%s\n' "file provider: empty path" >&2
	exit 4
fi

# The allowed roots, physical.
roots_spec="${MCP_RESOURCES_ROOTS-}"
[ -n "${roots_spec}" ] || roots_spec="${MCPBASH_RESOURCES_DIR-}"
[ -n "${roots_spec}" ] || roots_spec="${MCPBASH_PROJECT_ROOT-}"
roots=()
rest="${roots_spec}:"
while [ -n "${rest}" ]; do
	entry="${rest%%:*}"
	rest="${rest#*:}"
	[ -n "${entry}" ] || continue
	if resolved="$(physical_dir "${entry}")"; then
		roots+=("${resolved}")
	fi
done
if [ "${#roots[@]}" -eq 0 ]; then
	printf '%s\n' "file provider: no resource roots configured (MCP_RESOURCES_ROOTS); refusing" >&2
	exit 2
fi

# Resolve the directory physically; the last component stays as named.
case "${path}" in
*/*) dir="${path%/*}" ;;
*) dir="." ;;
esac
[ -n "${dir}" ] || dir="/"
name="${path##*/}"
if [ -z "${name}" ] || [ "${name}" = "." ] || [ "${name}" = ".." ]; then
	printf 'file provider: not a file: %s\n' "${path}" >&2
	exit 3
fi
if ! real_dir="$(physical_dir "${dir}")"; then
	printf 'file provider: not found: %s\n' "${path}" >&2
	exit 3
fi
if [ "${real_dir}" = "/" ]; then target="/${name}"; else target="${real_dir}/${name}"; fi

allowed=false
for root in "${roots[@]}"; do
	if within "${root}" "${target}"; then
		allowed=true
		break
	fi
done
if [ "${allowed}" != true ]; then
	printf 'file provider: outside allowed roots: %s\n' "${path}" >&2
	exit 2
fi
if [ -L "${target}" ]; then
	printf 'file provider: symbolic links are not served: %s\n' "${path}" >&2
	exit 2
fi
if [ ! -f "${target}" ]; then
	printf 'file provider: not found or not a regular file: %s\n' "${path}" >&2
	exit 3
fi
if [ ! -r "${target}" ]; then
	printf 'file provider: not readable: %s\n' "${path}" >&2
	exit 3
fi

cat -- "${target}"

# Checked again after reading: a swap to a symlink (or of a parent directory) in between
# fails the read; the server never returns partial or unchecked content.
if [ -L "${target}" ] || [ "$(physical_dir "${dir}" || true)" != "${real_dir}" ]; then
	printf 'file provider: file changed into a symbolic link while being read: %s\n' "${path}" >&2
	exit 2
fi
