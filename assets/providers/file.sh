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
# The file is opened before it is checked, and what is read is what was checked: swapping a
# file or directory for a symbolic link while a read runs never serves a file outside the
# roots (docs/SECURITY.md).
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

# physical_dir DIR: prints DIR with symlinks resolved, as the kernel reports it (a separate
# pwd, as for the file's own directory below); status 1 when it is not a directory.
physical_dir() {
	(cd -P -- "${1}" 2>/dev/null && env pwd -P)
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

# The file's directory and name; the last component stays as named (never followed).
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

# Open first, then check what was opened: a local writer may swap a file or a directory on
# the path for a symbolic link at any moment. Going into the directory pins it (swapping a
# component of its path afterwards changes nothing); `pwd -P` of a separate program asks the
# kernel where we really are (the shell's own `pwd -P` re-reads the path, which may have
# changed since); the file is opened by its name in that directory, and the open file must
# be the regular file now at that name, not something a link led to meanwhile.
if ! cd -- "${dir}" 2>/dev/null; then
	printf 'file provider: not found: %s\n' "${path}" >&2
	exit 3
fi
if ! real_dir="$(env pwd -P 2>/dev/null)" || [ -z "${real_dir}" ]; then
	printf 'file provider: cannot tell where %s is\n' "${path}" >&2
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
if [ -L "./${name}" ]; then
	printf 'file provider: symbolic links are not served: %s\n' "${path}" >&2
	exit 2
fi
if [ ! -f "./${name}" ]; then
	printf 'file provider: not found or not a regular file: %s\n' "${path}" >&2
	exit 3
fi
if [ ! -r "./${name}" ] || ! { exec 3<"./${name}"; } 2>/dev/null; then
	printf 'file provider: not readable: %s\n' "${path}" >&2
	exit 3
fi

# file_id [-L] PATH: prints PATH's device and inode ("dev:ino"), of a symbolic link itself
# unless -L; GNU stat (Linux, MSYS) or BSD stat (macOS).
if stat -c '%i' / >/dev/null 2>&1; then stat_format=(-c '%d:%i'); else stat_format=(-f '%d:%i'); fi
file_id() {
	if [ "${1}" = "-L" ]; then
		stat -L "${stat_format[@]}" -- "${2}" 2>/dev/null
	else
		stat "${stat_format[@]}" -- "${1}" 2>/dev/null
	fi
}
opened="$(file_id -L /dev/fd/3)" || opened=""
named="$(file_id "./${name}")" || named=""
if [ -z "${opened}" ] || [ "${opened}" != "${named}" ] || [ ! -f /dev/fd/3 ]; then
	printf 'file provider: file changed while being opened (a symbolic link was swapped in?): %s\n' "${path}" >&2
	exit 2
fi

cat <&3
