#!/usr/bin/env bash
# Two files of sample/: the diff-viewer view computes the line diff from their texts.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"
# shellcheck source=SCRIPTDIR/../../lib/sample-path.sh
source "${MCPBASH_PROJECT_ROOT:?}/lib/sample-path.sh"

left="$(mcp_args_get '.left // "app-v1.conf"')"
right="$(mcp_args_get '.right // "app-v2.conf"')"
for name in "${left}" "${right}"; do
	if ! path="$(sample_path "${name}")" || [ ! -f "${path}" ]; then
		mcp_error "not_found" "sample/${name} is not a file" --hint "Call example-file-tree to see the files"
		exit 0
	fi
done
left_path="$(sample_path "${left}")"
right_path="$(sample_path "${right}")"
patch="$(diff -u --label "${left}" --label "${right}" "${left_path}" "${right_path}" || true)"
mcp_result_with_ui "" "${patch:-The files are identical.}" \
	"{\"left\":$(mcp_json_escape "$(cat "${left_path}")"),\"right\":$(mcp_json_escape "$(cat "${right_path}")")}"
