#!/usr/bin/env bash
# Loads layered configuration and reads single values from it.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

root="${MCPBASH_PROJECT_ROOT:?}"

# Highest precedence first: $EXAMPLE_CONFIG (JSON text or a file path), config.json (yours,
# not shipped), config.example.json (shipped), the defaults. Objects merge key by key at the
# top level; missing files are skipped.
mcp_config_load --env EXAMPLE_CONFIG --file "${root}/config.json" --example "${root}/config.example.json" \
	--defaults '{"greeting":"Hi","units":"metric","maxItems":3}' || true

# Strings come out raw, anything else as compact JSON; --default covers missing keys.
greeting="$(mcp_config_get '.greeting' --default 'Hi')"
units="$(mcp_config_get '.units' --default 'metric')"
max_items="$(mcp_config_get '.maxItems' --default 3)"
allow_hosts="$(mcp_config_get '.download.allowHosts' --default '[]')"

sources="[\"defaults\""
[ -f "${root}/config.example.json" ] && sources="${sources},\"config.example.json\""
[ -f "${root}/config.json" ] && sources="${sources},\"config.json\""
[ -n "${EXAMPLE_CONFIG-}" ] && sources="${sources},\"EXAMPLE_CONFIG\""
sources="${sources}]"

mcp_result_success "$(printf '{"greeting":%s,"units":%s,"maxItems":%s,"allowHosts":%s,"sources":%s,"config":%s}' \
	"$(mcp_json_escape "${greeting}")" "$(mcp_json_escape "${units}")" "${max_items}" "${allow_hosts}" "${sources}" "${MCP_CONFIG_JSON}")"
