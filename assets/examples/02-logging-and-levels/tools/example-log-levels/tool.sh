#!/usr/bin/env bash
# Logs at every level while it "processes" items. The tool always writes every line; the
# server drops the ones below the client's level (logging/setLevel, default info) before
# they become notifications/message.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

items="$(mcp_args_int '.items' --default 3 --min 1 --max 20)"
logger="example-log-levels"

# The level in force when the call started (the server passes it along).
mcp_log_info "${logger}" "Processing ${items} item(s); the client's log level is ${MCPBASH_LOG_LEVEL:-info}"

skipped=0
i=1
while [ "${i}" -le "${items}" ]; do
	# Detail only worth seeing while debugging: sent only at level debug.
	mcp_log_debug "${logger}" "Item ${i}: checked"
	if [ $((i % 3)) -eq 0 ]; then
		skipped=$((skipped + 1))
		mcp_log_warn "${logger}" "Item ${i}: skipped (every third item is)"
	fi
	i=$((i + 1))
done

# mcp_log takes any RFC 5424 level and structured data (any JSON value).
mcp_log notice "${logger}" "{\"items\":${items},\"skipped\":${skipped}}"

if [ "${skipped}" -gt 0 ]; then
	mcp_log_error "${logger}" "${skipped} item(s) were not processed"
fi

# mcp_debug goes to a per-call debug file, never to the client.
mcp_debug "finished: items=${items} skipped=${skipped}"

mcp_result_success "{\"processed\":$((items - skipped)),\"skipped\":${skipped}}"
