#!/usr/bin/env bash
# Completion script __NAME__: suggests values for an argument of the prompt (or resource)
# named __TARGET__. mcp-bash runs it for completion/complete with
#   MCP_COMPLETION_ARGS_JSON  {"query", "prefix", "argument": {"name", "value"}, "context", "ref"}
#   MCP_COMPLETION_LIMIT, MCP_COMPLETION_OFFSET   the page the client asked for
#   (the whole contract, MCP_COMPLETION_CURSOR included: docs/TOOL-CONTRACT.md in mcp-bash)
# and reads {"suggestions": [...], "hasMore": bool, "next": N} (or a JSON array of strings)
# from stdout. Print one page: the matches from MCP_COMPLETION_OFFSET, at most
# MCP_COMPLETION_LIMIT of them; a script that prints every match for every page hands a
# client that follows nextCursor the first page again and again.
set -euo pipefail

args="${MCP_COMPLETION_ARGS_JSON:-}"
[ -n "${args}" ] || args='{}'
json_tool="${MCPBASH_JSON_TOOL_BIN:-jq}"
argument="$(printf '%s' "${args}" | "${json_tool}" -r '.argument.name // ""' 2>/dev/null || true)"
query="$(printf '%s' "${args}" | "${json_tool}" -r '.query // ""' 2>/dev/null || true)"

# Replace with real candidates, e.g. from a file or a command; branch on "${argument}"
# when the prompt has several arguments.
case "${argument}" in
*) candidates=("alpha" "beta" "gamma") ;;
esac

offset="${MCP_COMPLETION_OFFSET:-0}"
limit="${MCP_COMPLETION_LIMIT:-5}"
matches=()
for candidate in "${candidates[@]}"; do
	case "${candidate}" in
	"${query}"*) matches+=("${candidate}") ;;
	esac
done

# One page: at most limit matches from offset; "next" is where the following page starts.
printf '{"suggestions":['
separator=''
index="${offset}"
while [ "${index}" -lt "${#matches[@]}" ] && [ "${index}" -lt "$((offset + limit))" ]; do
	# The candidates above need no JSON escaping; escape real data (mcp-bash jq -R . does it).
	printf '%s"%s"' "${separator}" "${matches[${index}]}"
	separator=','
	index=$((index + 1))
done
more=false
[ "${index}" -lt "${#matches[@]}" ] && more=true
printf '],"hasMore":%s,"next":%s}\n' "${more}" "${index}"
