#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Built-in resource provider for git+https:// URIs: one file from a remote repository.
#
#   git.sh git+https://host/owner/repo[.git]#<ref>:<path>
#
# <ref> is a branch, tag or commit (empty: HEAD); a fragment without ":" is a path at HEAD.
# Exit status (provider contract): 0 ok; 3 path not found, not a file, or escaping the
# repository; 4 provider disabled, invalid URI, blocked host or git missing; 5 fetch failed
# or timed out; 6 repository larger than the size cap.
#
# Disabled unless MCPBASH_ENABLE_GIT_PROVIDER=true. Host policy (shared with the https
# provider: sdk lib/url-policy.sh): userinfo is refused; MCPBASH_GIT_ALLOW_HOSTS (comma/space
# list of exact hosts) or MCPBASH_GIT_ALLOW_ALL=true is required, as in 1.x; MCPBASH_GIT_DENY_HOSTS
# always wins; private, loopback, link-local and reserved addresses are always refused, and git is
# pinned to the vetted addresses (http.curloptResolve, git >= 2.37). Limits:
# MCPBASH_GIT_TIMEOUT seconds (30, at most 60), MCPBASH_GIT_MAX_KB (51200, at most 1048576).
# The fetch is shallow, follows no redirects, uses no proxy, credential helper, hooks or
# user/system git configuration; the file is read from the object store (nothing is
# checked out), and symbolic links in the repository are refused.
set -euo pipefail

provider_dir="${BASH_SOURCE[0]%/*}"
[ "${provider_dir}" != "${BASH_SOURCE[0]}" ] || provider_dir="."

fail() {
	printf 'git provider: %s\n' "$2" >&2
	exit "$1"
}

policy_loaded=false
for candidate in "${MCP_SDK:+${MCP_SDK}/lib/url-policy.sh}" \
	"${MCPBASH_HOME:+${MCPBASH_HOME}/sdk/lib/url-policy.sh}" \
	"${MCPBASH_HOME:+${MCPBASH_HOME}/sdk-sh/lib/url-policy.sh}" \
	"${provider_dir}/../sdk/lib/url-policy.sh" \
	"${provider_dir}/../../sdk-sh/lib/url-policy.sh"; do
	if [ -n "${candidate}" ] && [ -f "${candidate}" ]; then
		# shellcheck source=../../sdk-sh/lib/url-policy.sh
		. "${candidate}"
		policy_loaded=true
		break
	fi
done
[ "${policy_loaded}" = true ] || fail 4 "URL policy (sdk/lib/url-policy.sh) not found; refusing to fetch"

# The policy file brings _mcp_is_true: the boolean words of every setting (true/1/yes/on).
_mcp_is_true "${MCPBASH_ENABLE_GIT_PROVIDER-}" ||
	fail 4 "disabled (set MCPBASH_ENABLE_GIT_PROVIDER=true to enable git+https:// resources)"
# Enabling the provider is not consent to fetch from anywhere: the operator names the hosts.
if [ -z "${MCPBASH_GIT_ALLOW_HOSTS-}" ] && ! _mcp_is_true "${MCPBASH_GIT_ALLOW_ALL-}"; then
	fail 4 "requires MCPBASH_GIT_ALLOW_HOSTS or MCPBASH_GIT_ALLOW_ALL=true when enabled"
fi

uri="${1-}"
case "${uri}" in
git+https://*) ;;
*) fail 4 "requires a git+https:// URI" ;;
esac
case "${uri}" in
*#*) ;;
*) fail 4 "the URI needs a fragment: git+https://host/owner/repo#<ref>:<path>" ;;
esac
repo_url="${uri#git+}"
repo_url="${repo_url%%#*}"
fragment="${uri#*#}"
case "${fragment}" in
*:*)
	ref="${fragment%%:*}"
	path="${fragment#*:}"
	;;
*)
	ref=""
	path="${fragment}"
	;;
esac
[ -n "${ref}" ] || ref="HEAD"

ref_re='^[A-Za-z0-9._/-]+$'
if ! [[ "${ref}" =~ ${ref_re} ]] || [[ "${ref}" == -* ]] || [[ "${ref}" == *..* ]]; then
	fail 4 "invalid ref: ${ref}"
fi
[ -n "${path}" ] || fail 4 "the URI names no file path"
case "/${path}/" in
//* | */../* | */./*) fail 3 "path escapes the repository: ${path}" ;;
esac
case "${path}" in
*\\* | *[[:cntrl:]]*) fail 3 "invalid path: ${path}" ;;
esac

status=0
_mcp_url_vet "${repo_url}" "${MCPBASH_GIT_ALLOW_HOSTS-}" "${MCPBASH_GIT_DENY_HOSTS-}" \
	"${MCPBASH_GIT_ALLOW_ALL:-false}" true || status=$?
[ "${status}" -eq 0 ] || fail 4 "${_MCPBASH_URL_ERROR}"
case "${_MCPBASH_URL_TARGET#https://*/}" in
'' | '?'*) fail 4 "the URI names no repository" ;;
esac

command -v git >/dev/null 2>&1 || fail 4 "git is required"

bounded() {
	local value="${1-}" default="$2" cap="$3"
	# Around spaces are dropped, as the server does when it checks the value.
	value="${value#"${value%%[![:space:]]*}"}"
	value="${value%"${value##*[![:space:]]}"}"
	case "${value}" in
	'' | *[!0-9]*) value="${default}" ;;
	esac
	value=$((10#${value}))
	[ "${value}" -gt 0 ] || value="${default}"
	[ "${value}" -le "${cap}" ] || value="${cap}"
	printf '%s' "${value}"
}
timeout_secs="$(bounded "${MCPBASH_GIT_TIMEOUT-}" 30 60)"
max_kb="$(bounded "${MCPBASH_GIT_MAX_KB-}" 51200 1048576)"

work="$(mktemp -d "${TMPDIR:-/tmp}/mcpbash-git.XXXXXX")"
trap 'rm -rf -- "${work}"' EXIT

free_kb="$(df -Pk "${work}" 2>/dev/null | awk 'NR == 2 { print $4 }')" || free_kb=""
if [ -n "${free_kb}" ] && [ "${free_kb}" -lt "${max_kb}" ] 2>/dev/null; then
	fail 5 "not enough free disk space for a ${max_kb} KB repository"
fi

# No user or system configuration (url.insteadOf could rewrite the vetted URL), no prompts,
# no proxies.
export HOME="${work}" XDG_CONFIG_HOME="${work}" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_TERMINAL_PROMPT=0 GIT_ASKPASS=/bin/false SSH_ASKPASS=/bin/false GIT_LFS_SKIP_SMUDGE=1
unset GIT_DIR GIT_WORK_TREE GIT_CONFIG GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_PROXY_COMMAND \
	http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY GIT_SSL_NO_VERIFY 2>/dev/null || true

git_opts=(-c protocol.allow=never -c protocol.https.allow=always -c http.followRedirects=false
	-c credential.helper= -c core.hooksPath=/dev/null -c http.proxy= -c core.symlinks=false)
case "${_MCPBASH_URL_HOST}" in
*:*) ;;
*[a-z]*)
	version="$(git --version 2>/dev/null | awk '{ print $3 }')" || version=""
	major="${version%%.*}"
	minor="${version#*.}"
	minor="${minor%%.*}"
	if [ "${major:-0}" -gt 2 ] 2>/dev/null || { [ "${major:-0}" -eq 2 ] && [ "${minor:-0}" -ge 37 ]; } 2>/dev/null; then
		git_opts+=(-c "http.curloptResolve=${_MCPBASH_URL_HOST}:${_MCPBASH_URL_PORT}:${_MCPBASH_URL_ADDRS}")
	else
		printf 'git provider: warning: git %s cannot pin DNS answers (needs 2.37); relying on the pre-check\n' "${version:-?}" >&2
	fi
	;;
esac

repo="${work}/repo"
git "${git_opts[@]}" init --quiet --bare "${repo}" >/dev/null 2>&1 || fail 5 "git init failed"

# Fetch in its own process group, killed on timeout or when the repository outgrows the cap.
set -m
git "${git_opts[@]}" -C "${repo}" fetch --quiet --depth 1 --no-tags --no-recurse-submodules \
	-- "${_MCPBASH_URL_TARGET}" "${ref}" >"${work}/fetch.out" 2>"${work}/fetch.err" &
pid=$!
set +m
deadline=$((SECONDS + timeout_secs))
verdict=""
while kill -0 "${pid}" 2>/dev/null; do
	if [ "${SECONDS}" -ge "${deadline}" ]; then
		verdict="timeout"
	elif [ "$(du -sk "${repo}" 2>/dev/null | awk '{ print $1 }')" -gt "${max_kb}" ] 2>/dev/null; then
		verdict="too-large"
	fi
	if [ -n "${verdict}" ]; then
		kill -TERM -- "-${pid}" 2>/dev/null || kill -TERM "${pid}" 2>/dev/null || true
		sleep 1
		kill -KILL -- "-${pid}" 2>/dev/null || true
		break
	fi
	sleep 0.25
done
fetch_rc=0
wait "${pid}" 2>/dev/null || fetch_rc=$?
case "${verdict}" in
timeout) fail 5 "fetch timed out after ${timeout_secs}s" ;;
too-large) fail 6 "repository exceeds ${max_kb} KB (MCPBASH_GIT_MAX_KB)" ;;
esac
[ "${fetch_rc}" -eq 0 ] || fail 5 "fetch failed: $(head -n 1 "${work}/fetch.err")"
if [ "$(du -sk "${repo}" 2>/dev/null | awk '{ print $1 }')" -gt "${max_kb}" ] 2>/dev/null; then
	fail 6 "repository exceeds ${max_kb} KB (MCPBASH_GIT_MAX_KB)"
fi

entry="$(git "${git_opts[@]}" -C "${repo}" ls-tree FETCH_HEAD -- "${path}" 2>/dev/null)" || entry=""
case "${entry}" in
100644\ blob\ * | 100755\ blob\ *) ;;
120000\ *) fail 3 "symbolic links are not served: ${path}" ;;
'') fail 3 "not found at ${ref}: ${path}" ;;
*) fail 3 "not a regular file: ${path}" ;;
esac
git "${git_opts[@]}" -C "${repo}" cat-file blob "FETCH_HEAD:${path}" || fail 5 "cannot read ${path}"
