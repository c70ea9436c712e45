#!/usr/bin/env bash
# Counts slowly. After every step it reports progress; between steps it checks whether the
# client cancelled the call. With progressExtendsTimeout in tool.meta.json each progress
# report restarts the 10-second timeout, so a long count is not cut short.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

steps="$(mcp_args_int '.steps' --default 10 --min 1 --max 100)"
delay_ms="$(mcp_args_int '.delayMs' --default 500 --min 10 --max 5000)"
delay="$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"

# On cancellation the server creates the cancel marker, then sends SIGTERM to the tool's
# process group (and SIGKILL after a grace period). A do-nothing TERM handler keeps this
# script alive while `sleep` and other children still stop (`trap '' TERM` would make them
# ignore it too), so the loop notices the cancellation and stops at a clean point.
trap ':' TERM

mcp_progress 0 "Counting to ${steps}" 100
i=1
while [ "${i}" -le "${steps}" ]; do
	sleep "${delay}" || true
	if mcp_is_cancelled; then
		# The client gets no response for a cancelled call and the server stops forwarding
		# its logs: clean up here (temporary files, half-written output) and leave.
		mcp_debug "cancelled at step ${i} of ${steps}"
		exit 0
	fi
	# A percentage; mcp_progress does nothing when the request had no progressToken.
	mcp_progress $((i * 100 / steps)) "Step ${i} of ${steps}" 100
	i=$((i + 1))
done

mcp_result_success "{\"counted\":${steps}}"
