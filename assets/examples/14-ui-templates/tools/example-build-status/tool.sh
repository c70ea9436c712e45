#!/usr/bin/env bash
# One step further per call, up to five: the shape the progress template reads
# ({progress, total, message, steps, done}).
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

state="${MCPBASH_PROJECT_ROOT:?}/data/build.step"
if [ ! -f "${state}" ]; then
	mcp_error "not_found" "no build is running" --hint "Start one with example-build"
	exit 0
fi
names="Checkout Install Compile Test Package"
total=5
step="$(cat "${state}")"
[ "${step}" -ge "${total}" ] || step=$((step + 1))
printf '%s\n' "${step}" >"${state}"

steps=""
i=0
current=""
for name in ${names}; do
	if [ "${i}" -lt "${step}" ]; then
		steps="${steps:+${steps},}$(mcp_json_obj label "${name}" status "done")"
	elif [ -z "${current}" ]; then
		current="${name}"
	fi
	i=$((i + 1))
done
if [ "${step}" -ge "${total}" ]; then
	message="Build finished"
	done=true
else
	message="Running ${current} (step $((step + 1)) of ${total})"
	done=false
fi
mcp_result_with_ui "" "${message}: ${step} of ${total} steps done" \
	"{\"progress\":${step},\"total\":${total},\"message\":$(mcp_json_escape "${message}"),\"steps\":[${steps}],\"done\":${done}}"
