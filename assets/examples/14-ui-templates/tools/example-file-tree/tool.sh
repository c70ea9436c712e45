#!/usr/bin/env bash
# sample/ as nested nodes ({id, label, meta, children}), the shape the tree-view reads.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

# nodes DIR PREFIX: the JSON nodes of DIR's entries, ids relative to sample/.
nodes() {
	local dir="$1" prefix="$2" out="" entry name node
	for entry in "${dir}"/*; do
		[ -e "${entry}" ] || continue
		name="${entry##*/}"
		if [ -d "${entry}" ]; then
			node="{\"id\":$(mcp_json_escape "${prefix}${name}"),\"label\":$(mcp_json_escape "${name}"),\"children\":[$(nodes "${entry}" "${prefix}${name}/")]}"
		else
			node="{\"id\":$(mcp_json_escape "${prefix}${name}"),\"label\":$(mcp_json_escape "${name}"),\"meta\":\"$(wc -c <"${entry}" | tr -d ' ') bytes\"}"
		fi
		out="${out:+${out},}${node}"
	done
	printf '%s' "${out}"
}

root="${MCPBASH_PROJECT_ROOT:?}/sample"
listing="$(cd "${root}" && find . -type f | sed 's|^\./||' | sort)"
mcp_result_with_ui "" "Files under sample/:"$'\n'"${listing}" \
	"{\"nodes\":[{\"id\":\".\",\"label\":\"sample\",\"children\":[$(nodes "${root}" "")]}]}"
