#!/bin/sh
# mcp-bash installer: downloads a release archive and SHA256SUMS, checks the archive's SHA-256,
# and installs the mcp-bash binary (default ~/.local/bin). Re-running it upgrades in place.
# `install.sh --help` lists the options. POSIX sh; needs curl or wget (not with --archive),
# tar, and sha256sum, shasum or openssl.
#
# This file is rendered by mcp-bash's release build; the two values below are filled in then.
set -eu

RENDERED_VERSION='@MCPBASH_VERSION@'
RENDERED_BASE_URL='@MCPBASH_RELEASE_BASE_URL@'
SUPPORTED='linux-x64, linux-arm64, darwin-x64, darwin-arm64 (Windows: use Scoop or the .zip)'

say() { printf 'mcp-bash install: %s\n' "$*" >&2; }
fail() {
	say "$1"
	exit "${2:-1}"
}
usage_error() {
	say "$1"
	say "usage: install.sh [--dir DIR] [--version V] [--base-url URL] [--archive PATH|URL --verify SHA256] [--uninstall]"
	exit 2
}

print_help() {
	cat <<'EOF_HELP'
Installs the mcp-bash binary from a release (default into ~/.local/bin); re-running upgrades it.

  curl -fsSL <release URL>/install.sh | sh
  curl -fsSL <release URL>/install.sh | sh -s -- --version 2.1.0 --dir /usr/local/bin
  sh install.sh --archive mcp-bash-2.0.0-linux-x64.tar.gz --verify <sha256>   (no network)
  sh install.sh --uninstall

Options:
  --dir DIR            install into DIR (default: $XDG_BIN_HOME, else ~/.local/bin; created)
  --version V          install release V instead of the one this script came with (--ref V: the same)
  --base-url URL       the directory holding one release's archives and SHA256SUMS; {version}
                       is replaced by the version (default: $MCPBASH_RELEASE_BASE_URL, else
                       the project's release downloads)
  --archive PATH|URL   install this archive (no SHA256SUMS needed); requires --verify
  --verify SHA256      the archive's expected SHA-256
  --uninstall          remove the binary and the framework files it extracted
  -y, --yes            accepted for 1.x compatibility (the installer never prompts)
  -h, --help           this text

Exit status: 0 done, 1 failed (nothing was changed), 2 usage error, 3 refused (the target is
not an mcp-bash binary).
EOF_HELP
}

# --- arguments ------------------------------------------------------------------------------
opt_dir=''
opt_version=''
opt_base_url=''
opt_archive=''
opt_verify=''
opt_uninstall=0

need_value() {
	[ "$2" -ge 2 ] || usage_error "$1 needs a value"
}

parse_args() {
	while [ "$#" -gt 0 ]; do
		case "$1" in
		--dir) need_value "$1" "$#" && opt_dir=$2 && shift ;;
		--dir=*) opt_dir=${1#*=} ;;
		--version | --ref) need_value "$1" "$#" && opt_version=$2 && shift ;;
		--version=* | --ref=*) opt_version=${1#*=} ;;
		--base-url) need_value "$1" "$#" && opt_base_url=$2 && shift ;;
		--base-url=*) opt_base_url=${1#*=} ;;
		--archive) need_value "$1" "$#" && opt_archive=$2 && shift ;;
		--archive=*) opt_archive=${1#*=} ;;
		--verify) need_value "$1" "$#" && opt_verify=$2 && shift ;;
		--verify=*) opt_verify=${1#*=} ;;
		--uninstall) opt_uninstall=1 ;;
		-y | --yes) ;;
		-h | --help)
			print_help
			exit 0
			;;
		--branch | --branch=*) usage_error "--branch: mcp-bash 2.x installs release binaries, not source branches; use --version" ;;
		*) usage_error "unknown option: $1" ;;
		esac
		shift
	done
	if [ -n "$opt_archive" ] && [ -z "$opt_verify" ]; then
		usage_error "--archive needs --verify SHA256 (the archive's line in SHA256SUMS)"
	fi
	if [ -n "$opt_verify" ]; then
		opt_verify=$(printf '%s' "$opt_verify" | tr '[:upper:]' '[:lower:]')
		case "$opt_verify" in
		*[!0-9a-f]*) usage_error "--verify: '$opt_verify' is not a SHA-256 (64 hex digits)" ;;
		esac
		[ "${#opt_verify}" -eq 64 ] || usage_error "--verify: '$opt_verify' is not a SHA-256 (64 hex digits)"
	fi
	opt_version=${opt_version#v}
	return 0
}

# --- platform -------------------------------------------------------------------------------
detect_platform() {
	os_name=$(uname -s 2>/dev/null || echo unknown)
	machine=$(uname -m 2>/dev/null || echo unknown)
	case "$os_name" in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	*) fail "unsupported operating system: $os_name ($machine). Release binaries exist for: $SUPPORTED" ;;
	esac
	case "$machine" in
	x86_64 | amd64) arch=x64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) fail "unsupported CPU: $machine on $os_name. Release binaries exist for: $SUPPORTED" ;;
	esac
	# An x64 shell under Rosetta on Apple Silicon: the native binary is the better choice.
	if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
		arch=arm64
	fi
}

# --- tools ----------------------------------------------------------------------------------
have() { command -v "$1" >/dev/null 2>&1; }

download() {
	if have curl; then
		curl -fsSL --retry 2 -o "$2" "$1" || fail "download failed: $1"
	elif have wget; then
		wget -q -O "$2" "$1" || fail "download failed: $1"
	else
		fail "downloading needs curl or wget; install one, or use --archive PATH --verify SHA256"
	fi
}

sha256_of() {
	if have sha256sum; then
		sha256sum "$1" | cut -d ' ' -f 1
	elif have shasum; then
		shasum -a 256 "$1" | cut -d ' ' -f 1
	elif have openssl; then
		openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
	else
		fail "checking the download needs sha256sum, shasum or openssl"
	fi
}

# --- install --------------------------------------------------------------------------------
install_dir() {
	if [ -n "$opt_dir" ]; then
		# Absolute, so the PATH advice names a directory that works from anywhere.
		case "$opt_dir" in
		/*) printf '%s\n' "$opt_dir" ;;
		*) printf '%s/%s\n' "$(pwd)" "${opt_dir#./}" ;;
		esac
	elif [ -n "${XDG_BIN_HOME:-}" ]; then
		printf '%s\n' "$XDG_BIN_HOME"
	else
		[ -n "${HOME:-}" ] || fail "HOME is not set; use --dir DIR"
		printf '%s\n' "$HOME/.local/bin"
	fi
}

release_url() {
	template=${opt_base_url:-${MCPBASH_RELEASE_BASE_URL:-$RENDERED_BASE_URL}}
	case "$template" in
	@*@ | '') fail "no release URL: pass --base-url URL or set MCPBASH_RELEASE_BASE_URL" 2 ;;
	esac
	printf '%s\n' "$template" | sed -e "s|{version}|$1|g" -e 's|/*$||'
}

# Puts the archive at $work/archive and its expected SHA-256 in $expected.
fetch_archive() {
	if [ -n "$opt_archive" ]; then
		case "$opt_archive" in
		http://* | https://*) download "$opt_archive" "$work/archive" ;;
		file://*) cp "${opt_archive#file://}" "$work/archive" 2>/dev/null || fail "cannot read ${opt_archive#file://}" ;;
		*) cp "$opt_archive" "$work/archive" 2>/dev/null || fail "cannot read $opt_archive" ;;
		esac
		expected=$opt_verify
		return 0
	fi
	version=${opt_version:-$RENDERED_VERSION}
	case "$version" in
	@*@) fail "this install.sh is the unrendered template: pass --version V, or use the install.sh of a release" 2 ;;
	esac
	base=$(release_url "$version")
	name="mcp-bash-$version-$os-$arch.tar.gz"
	say "downloading $base/$name"
	download "$base/SHA256SUMS" "$work/SHA256SUMS"
	expected=$(awk -v name="$name" '$2 == name || $2 == "*" name { print $1; exit }' "$work/SHA256SUMS")
	[ -n "$expected" ] || fail "SHA256SUMS of $version lists no $name: no release for $os-$arch?"
	if [ -n "$opt_verify" ] && [ "$opt_verify" != "$expected" ]; then
		fail "--verify $opt_verify does not match SHA256SUMS ($expected); nothing was installed"
	fi
	download "$base/$name" "$work/archive"
}

check_archive() {
	actual=$(sha256_of "$work/archive")
	if [ "$actual" != "$expected" ]; then
		fail "checksum mismatch: expected $expected, got $actual; nothing was installed"
	fi
}

# Unpacks the archive and leaves the checked binary at $staged.
unpack() {
	mkdir "$work/unpacked"
	tar -xzf "$work/archive" -C "$work/unpacked" 2>/dev/null || fail "cannot unpack the archive (not a .tar.gz?)"
	staged=''
	for candidate in "$work"/unpacked/mcp-bash "$work"/unpacked/*/mcp-bash; do
		if [ -f "$candidate" ]; then
			staged=$candidate
			break
		fi
	done
	[ -n "$staged" ] || fail "the archive holds no mcp-bash binary"
	chmod 0755 "$staged"
}

# macOS: downloads may carry the quarantine attribute; an unsigned arm64 binary is refused.
prepare_for_macos() {
	[ "$os" = darwin ] || return 0
	xattr -d com.apple.quarantine "$staged" 2>/dev/null || true
	if have codesign && ! codesign --verify "$staged" 2>/dev/null; then
		codesign --force --sign - "$staged" >/dev/null 2>&1 || say "warning: ad-hoc signing failed; run: codesign --force --sign - <binary>"
	fi
}

# The new binary must run before it replaces anything. It runs from its staged copy beside the
# target: the temp dir may be mounted noexec.
check_runs() {
	new_version=$("$1" --version 2>/dev/null) || {
		rm -f "$1"
		# The usual causes: an old glibc (Linux binaries need 2.28+), or a directory mounted noexec.
		why="is $(dirname "$1") mounted noexec? (--dir DIR installs elsewhere)"
		if [ "${os:-}" = linux ]; then why="it needs glibc 2.28 or newer; or $why"; fi
		fail "the downloaded binary does not run on this machine ($why); nothing was installed"
	}
	case "$new_version" in
	"mcp-bash "*) ;;
	*)
		rm -f "$1"
		fail "the archive's binary is not mcp-bash (it printed: $new_version); nothing was installed"
		;;
	esac
}

refuse_foreign_target() {
	if [ -d "$1" ] && [ ! -L "$1" ]; then
		fail "$1 is a directory, not an mcp-bash binary; refusing to $2 it" 3
	fi
	# A symlink (a 1.x shim, a link into a package manager's tree) is replaced or removed, never
	# what it points at; a file must say it is mcp-bash.
	if [ -e "$1" ] && [ ! -L "$1" ]; then
		case "$("$1" --version 2>/dev/null || true)" in
		"mcp-bash "*) ;;
		*) fail "$1 is not an mcp-bash binary (no 'mcp-bash <version>' from --version); refusing to $2 it. Move it away or pass --dir DIR" 3 ;;
		esac
	fi
}

place_binary() {
	dir=$(install_dir)
	target="$dir/mcp-bash"
	refuse_foreign_target "$target" replace
	mkdir -p "$dir" || fail "cannot create $dir"
	previous=''
	if [ -x "$target" ]; then previous=$("$target" --version 2>/dev/null || true); fi
	# A copy beside the target, then rename: the switch is atomic, a running mcp-bash keeps its file.
	new="$dir/.mcp-bash.new.$$"
	cp "$staged" "$new" || {
		rm -f "$new"
		fail "cannot write to $dir"
	}
	chmod 0755 "$new"
	check_runs "$new"
	mv -f "$new" "$target" || {
		rm -f "$new"
		fail "cannot replace $target"
	}
	if [ -n "$previous" ] && [ "$previous" != "$new_version" ]; then
		say "upgraded $target: ${previous#mcp-bash } -> ${new_version#mcp-bash }"
	else
		say "installed ${new_version} at $target"
	fi
}

path_advice() {
	case ":${PATH:-}:" in
	*":$dir:"*) return 0 ;;
	esac
	# No HOME (a container, sudo -i without one): name no profile file.
	home=${HOME:-}
	case "${SHELL:-}:$home" in
	*/fish:*)
		say "$dir is not on your PATH; run: fish_add_path $dir"
		return 0
		;;
	*:) profile='your shell profile' ;;
	*/zsh:*) profile="$home/.zshrc" ;;
	*/bash:*) profile="$home/.bashrc" ;;
	*) profile='your shell profile' ;;
	esac
	say "$dir is not on your PATH. Add it (then open a new shell):"
	say "  echo 'export PATH=\"$dir:\$PATH\"' >> $profile"
}

do_install() {
	if [ -z "$opt_archive" ]; then detect_platform; else os=$(uname -s 2>/dev/null | tr '[:upper:]' '[:lower:]'); fi
	work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-bash-install.XXXXXX") || fail "cannot create a temp dir"
	new=''
	trap 'rm -rf "$work" ${new:+"$new"}' EXIT
	trap 'rm -rf "$work" ${new:+"$new"}; exit 1' INT TERM HUP
	fetch_archive
	check_archive
	unpack
	prepare_for_macos
	place_binary
	path_advice
}

# --- uninstall ------------------------------------------------------------------------------
# Removes the framework files a 2.x binary extracted under $1 (a data dir's mcp-bash/); says
# what it removed. A 1.x install there, or anything else, stays.
remove_extracted_in() {
	case "$1" in /*) ;; *) return 0 ;; esac
	[ -d "$1" ] || return 0
	for extracted in "$1"/*; do
		# Only what a 2.x binary extracted (it leaves this marker).
		if [ -f "$extracted/.mcpbash-assets.json" ]; then
			rm -rf "$extracted" || fail "cannot remove $extracted"
			say "removed $extracted"
			removed_files=1
		fi
	done
	rmdir "$1" 2>/dev/null || true
}

# Both places a binary may have extracted to (D118): $XDG_DATA_HOME/mcp-bash (ignored when
# relative, as the binary ignores it) and ~/.local/share/mcp-bash.
remove_extracted_files() {
	removed_files=0
	case "${XDG_DATA_HOME:-}" in
	/*) remove_extracted_in "$XDG_DATA_HOME/mcp-bash" ;;
	esac
	if [ -n "${HOME:-}" ] && [ "${XDG_DATA_HOME:-}/mcp-bash" != "$HOME/.local/share/mcp-bash" ]; then
		remove_extracted_in "$HOME/.local/share/mcp-bash"
	fi
	[ "$removed_files" = 1 ] || say "no extracted framework files found"
}

do_uninstall() {
	dir=$(install_dir)
	target="$dir/mcp-bash"
	if [ ! -e "$target" ] && [ ! -L "$target" ]; then
		say "nothing to uninstall: $target does not exist"
		exit 0
	fi
	refuse_foreign_target "$target" remove
	rm -f "$target" || fail "cannot remove $target"
	say "removed $target"
	remove_extracted_files
}

parse_args "$@"
if [ "$opt_uninstall" = 1 ]; then do_uninstall; else do_install; fi
