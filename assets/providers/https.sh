#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Built-in resource provider for https:// URIs (SSRF-hardened).
#
#   https.sh URI     prints the body on stdout
#
# Exit status (provider contract): 0 ok; 4 invalid URI, blocked host or curl missing;
# 5 fetch failed (network, DNS, TLS, HTTP 4xx/5xx, timeout); 6 larger than the size cap;
# 7 redirect, with "redirect:<absolute location>" as the first stderr line.
#
# Policy (shared with the git provider and mcp_download_safe: sdk lib/url-policy.sh):
# https only; MCPBASH_HTTPS_ALLOW_HOSTS (comma/space list of exact hosts) or
# MCPBASH_HTTPS_ALLOW_ALL=true is required; MCPBASH_HTTPS_DENY_HOSTS always wins; private,
# loopback, link-local and reserved addresses and obfuscated IP literals are refused; every
# DNS answer is vetted and curl is pinned to the vetted addresses (--resolve), so a second
# DNS answer cannot redirect the request. No redirects, no proxies, no ~/.curlrc.
# Limits: MCPBASH_HTTPS_TIMEOUT seconds (15, at most 60), MCPBASH_HTTPS_MAX_BYTES (10 MiB,
# at most 20 MiB). MCPBASH_HTTPS_USER_AGENT sets the User-Agent.
#
# Project providers may delegate here: exec "${MCPBASH_HOME}/providers/https.sh" "$@"
set -euo pipefail

provider_dir="${BASH_SOURCE[0]%/*}"
[ "${provider_dir}" != "${BASH_SOURCE[0]}" ] || provider_dir="."

# The shared policy: MCP_SDK (set by the server), the framework home, or this file's
# neighbours (an extracted home has sdk/ beside providers/; a source checkout has sdk-sh/).
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
if [ "${policy_loaded}" != true ]; then
	printf '%s\n' "https provider: URL policy (sdk/lib/url-policy.sh) not found; refusing to fetch" >&2
	exit 4
fi

uri="${1-}"
if [ -z "${uri}" ]; then
	printf '%s\n' "https provider requires an https:// URI" >&2
	exit 4
fi

# Numeric setting with a default and a cap.
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

status=0
_mcp_url_vet "${uri}" "${MCPBASH_HTTPS_ALLOW_HOSTS-}" "${MCPBASH_HTTPS_DENY_HOSTS-}" \
	"${MCPBASH_HTTPS_ALLOW_ALL:-false}" true || status=$?
if [ "${status}" -ne 0 ]; then
	printf 'https provider: %s\n' "${_MCPBASH_URL_ERROR}" >&2
	exit "${status}"
fi

if ! command -v curl >/dev/null 2>&1; then
	printf '%s\n' "https provider: curl is required (no other client can pin DNS answers)" >&2
	exit 4
fi

timeout_secs="$(bounded "${MCPBASH_HTTPS_TIMEOUT-}" 15 60)"
max_bytes="$(bounded "${MCPBASH_HTTPS_MAX_BYTES-}" 10485760 20971520)"
connect_secs="${timeout_secs}"
[ "${connect_secs}" -le 10 ] || connect_secs=10
user_agent="${MCPBASH_HTTPS_USER_AGENT-}"
if [ -z "${user_agent}" ]; then
	user_agent="mcpbash/${MCPBASH_FRAMEWORK_VERSION:-unknown} (https-provider)"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/mcpbash-https.XXXXXX")"
trap 'rm -rf -- "${work}"' EXIT

# -q must come first: it stops curl from reading ~/.curlrc.
curl_args=(-q --silent --show-error --proto '=https' --proto-redir '=https' --max-redirs 0
	--noproxy '*' --tlsv1.2 --max-time "${timeout_secs}" --connect-timeout "${connect_secs}"
	--max-filesize "${max_bytes}" --user-agent "${user_agent}" --dump-header "${work}/headers")
case "${_MCPBASH_URL_HOST}" in
*:*) ;; # an IPv6 literal: nothing to resolve
*[a-z]*) curl_args+=(--resolve "${_MCPBASH_URL_HOST}:${_MCPBASH_URL_PORT}:${_MCPBASH_URL_ADDRS}") ;;
esac

# The body goes through head so at most max_bytes + 1 bytes ever reach the disk, even when
# the server sends no Content-Length.
set +e
curl "${curl_args[@]}" -- "${_MCPBASH_URL_TARGET}" 2>"${work}/stderr" | head -c "$((max_bytes + 1))" >"${work}/body"
codes=("${PIPESTATUS[@]}")
set -e
curl_rc="${codes[0]}"
body_bytes="$(wc -c <"${work}/body" | tr -d '[:space:]')"

if [ "${curl_rc}" -eq 63 ] || [ "${body_bytes}" -gt "${max_bytes}" ]; then
	printf 'https provider: response exceeds %s bytes (MCPBASH_HTTPS_MAX_BYTES)\n' "${max_bytes}" >&2
	exit 6
fi

# The final status line and Location header of the response.
http_code="$(awk '/^HTTP\// { code = $2 } END { print code }' "${work}/headers" 2>/dev/null)" || http_code=""
case "${http_code}" in
3??)
	location="$(awk 'tolower($0) ~ /^location:/ { sub(/^[^:]*:[ \t]*/, ""); sub(/\r$/, ""); loc = $0 } END { print loc }' "${work}/headers")" || location=""
	# Relative locations are made absolute against the requested URL.
	origin="${_MCPBASH_URL_TARGET#https://}"
	origin="https://${origin%%/*}"
	base="${_MCPBASH_URL_TARGET%%\?*}"
	case "${location}" in
	'' | [a-zA-Z]*://*) ;;
	//*) location="https:${location}" ;;
	/*) location="${origin}${location}" ;;
	*) location="${base%/*}/${location}" ;;
	esac
	printf 'redirect:%s\n' "${location}" >&2
	exit 7
	;;
esac

if [ "${curl_rc}" -ne 0 ]; then
	printf 'https provider: fetch failed (curl exit %s): %s\n' "${curl_rc}" "$(head -n 1 "${work}/stderr")" >&2
	exit 5
fi
case "${http_code}" in
2??) ;;
*)
	printf 'https provider: fetch failed: HTTP status %s\n' "${http_code:-unknown}" >&2
	exit 5
	;;
esac

cat -- "${work}/body"
