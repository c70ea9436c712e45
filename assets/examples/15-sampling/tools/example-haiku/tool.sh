#!/usr/bin/env bash
# Asks the client's model for a haiku (mcp_sample), and says which model wrote it
# (mcp_sample_messages gives the whole answer, model included).
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

topic="$(mcp_args_require '.topic' 'topic is required: what should the haiku be about?')"

if [ "${MCP_SAMPLE_SUPPORTED:-0}" != "1" ]; then
	mcp_error sampling_unavailable "This client cannot lend its model to tools (no sampling capability)" \
		--hint "Use a client that supports MCP sampling, or run-tool --sample-response TEXT"
	exit 0
fi

mcp_progress 10 "Asking the model for a haiku about ${topic}"
if ! haiku="$(mcp_sample "Write a haiku about ${topic}. Answer with the haiku only." \
	--system "You are a poet who writes in the classic 5-7-5 form." --max-tokens 80 --temperature 0.8)"; then
	mcp_error sampling_failed "The model did not answer" --hint "The user may have declined; try again"
	exit 0
fi
mcp_progress 100 "Done"
mcp_result_success "$(mcp_json_obj topic "${topic}" haiku "${haiku}")"
