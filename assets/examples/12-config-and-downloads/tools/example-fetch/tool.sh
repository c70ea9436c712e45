#!/usr/bin/env bash
# Downloads a URL with mcp_download_safe: https only, hosts from an allow list, private and
# reserved addresses refused, redirects reported instead of followed, a size cap. The allow
# list comes from the configuration (download.allowHosts).
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

root="${MCPBASH_PROJECT_ROOT:?}"
url="$(mcp_args_require '.url')"

mcp_config_load --env EXAMPLE_CONFIG --file "${root}/config.json" --example "${root}/config.example.json" || true
max_bytes="$(mcp_config_get '.download.maxBytes' --default 65536)"
timeout="$(mcp_config_get '.download.timeoutSecs' --default 10)"

# One --allow per configured host. With none, mcp_download_safe falls back to
# MCPBASH_HTTPS_ALLOW_HOSTS; when that is empty too, every host is refused.
allow=()
while IFS= read -r host; do
	[ -n "${host}" ] && allow+=(--allow "${host}")
done <<EOF_HOSTS
$(printf '%s' "${MCP_CONFIG_JSON-}" | "${MCPBASH_JSON_TOOL_BIN}" -r '(.download.allowHosts // [])[]' 2>/dev/null || true)
EOF_HOSTS

workdir="$(mktemp -d "${TMPDIR:-/tmp}/example-fetch.XXXXXX")"
trap 'rm -rf -- "${workdir}"' EXIT

# mcp_download_safe always returns 0 and prints {"success":true,...} or
# {"success":false,"error":{"type","message"[,"location"]}}.
result="$(mcp_download_safe --url "${url}" --out "${workdir}/body" --max-bytes "${max_bytes}" --timeout "${timeout}" \
	${allow[@]+"${allow[@]}"})"

if [ "$(printf '%s' "${result}" | "${MCPBASH_JSON_TOOL_BIN}" -r '.success')" != "true" ]; then
	type="$(printf '%s' "${result}" | "${MCPBASH_JSON_TOOL_BIN}" -r '.error.type')"
	message="$(printf '%s' "${result}" | "${MCPBASH_JSON_TOOL_BIN}" -r '.error.message')"
	case "${type}" in
	host_blocked) hint="Add the host to download.allowHosts in config.json (see config.example.json)" ;;
	redirect) hint="The URL redirects to $(printf '%s' "${result}" | "${MCPBASH_JSON_TOOL_BIN}" -r '.error.location // "another URL"'); fetch that URL instead if its host is allowed" ;;
	invalid_url) hint="Only https:// URLs can be fetched" ;;
	size_exceeded) hint="Raise download.maxBytes in config.json" ;;
	*) hint="Check the URL and try again" ;;
	esac
	mcp_error "${type}" "${message}" --hint "${hint}" --data "${result}"
	exit 0
fi

bytes="$(wc -c <"${workdir}/body" | tr -d '[:space:]')"
preview="$(head -c 500 "${workdir}/body" | tr -d '\000')"
mcp_result_success "$(printf '{"url":%s,"bytes":%s,"preview":%s}' "$(mcp_json_escape "${url}")" "${bytes}" "$(mcp_json_escape "${preview}")")"
