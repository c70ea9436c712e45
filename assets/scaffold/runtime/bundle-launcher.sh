#!/bin/sh
# Starts mcp-bash from an .mcpb bundle made with `mcp-bash bundle --runtime binary`: picks the
# binary for this OS and CPU from bin/ (MCPB's platform_overrides know the OS, not the CPU).
set -eu

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

case "$(uname -s)" in
  Darwin) os=darwin ;;
  Linux) os=linux ;;
  *)
    printf 'mcp-bash: this bundle has no binary for %s\n' "$(uname -s)" >&2
    exit 1
    ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  arm64 | aarch64) arch=arm64 ;;
  *)
    printf 'mcp-bash: this bundle has no binary for the %s CPU\n' "$(uname -m)" >&2
    exit 1
    ;;
esac
# Under Rosetta an Apple Silicon Mac reports x86_64: prefer the native binary.
if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
  arch=arm64
fi

bin="$here/bin/mcp-bash-$os-$arch"
if [ ! -f "$bin" ] && [ "$os" = darwin ] && [ -f "$here/bin/mcp-bash-darwin-x64" ]; then
  # An Apple Silicon Mac runs the x64 binary under Rosetta.
  bin="$here/bin/mcp-bash-darwin-x64"
fi
if [ ! -f "$bin" ]; then
  printf 'mcp-bash: this bundle has no binary for %s-%s (looked for %s)\n' "$os" "$arch" "$bin" >&2
  exit 1
fi
[ -x "$bin" ] || chmod +x "$bin" 2>/dev/null || true

# Apple Silicon refuses unsigned binaries: sign this one ad hoc, once.
if [ "$os" = darwin ] && command -v codesign >/dev/null 2>&1 && ! codesign -v "$bin" >/dev/null 2>&1; then
  codesign --force --sign - "$bin" >/dev/null 2>&1 || true
fi

# MCP clients start servers with a bare PATH; tools expect the user's (Homebrew and the like).
# Only PATH is taken from the login shell, so nothing else the profiles do leaks in, and the
# profiles never see our stdin (the client's JSON-RPC stream).
if [ -z "${MCPB_SKIP_LOGIN_SHELL:-}" ] && [ -n "${SHELL:-}" ] && [ -x "${SHELL}" ]; then
  # shellcheck disable=SC2016 # $PATH is expanded by the login shell, not here
  login_path=$("$SHELL" -lc 'printf "\n%s\n" "$PATH"' </dev/null 2>/dev/null | tail -n 1) || login_path=''
  if [ -n "$login_path" ]; then
    PATH=$login_path
    export PATH
  fi
fi

MCPBASH_PROJECT_ROOT=${MCPBASH_PROJECT_ROOT:-$here}
export MCPBASH_PROJECT_ROOT
exec "$bin" "$@"
