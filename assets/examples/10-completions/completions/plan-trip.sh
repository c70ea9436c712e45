#!/usr/bin/env bash
# Completion script for the plan-trip prompt (registered in server.d/register.json).
#
# Input (environment): MCP_COMPLETION_ARGS_JSON holds the request, including
# {"argument":{"name","value"}, "context":{"arguments":{...}}}; MCP_COMPLETION_OFFSET and
# MCP_COMPLETION_LIMIT say which page the client wants.
# Output (stdout): a JSON array of strings, or {"suggestions":[...],"hasMore":bool,"next":N}
# where next is the offset of the following page (the server turns it into a cursor).
set -euo pipefail

args="${MCP_COMPLETION_ARGS_JSON-}"
[ -n "${args}" ] || args='{}'
jq_bin="${MCPBASH_JSON_TOOL_BIN:-jq}"
argument="$(printf '%s' "${args}" | "${jq_bin}" -r '.argument.name // ""')"
typed="$(printf '%s' "${args}" | "${jq_bin}" -r '.argument.value // ""')"
offset="${MCP_COMPLETION_OFFSET:-0}"
limit="${MCP_COMPLETION_LIMIT:-5}"

case "${argument}" in
city) candidates=(Amsterdam Athens Barcelona Berlin Bordeaux Bruges Budapest Copenhagen Dublin Edinburgh Florence Geneva Hamburg Helsinki Krakow Lisbon Ljubljana London Lyon Madrid Milan Munich Naples Oslo Paris Porto Prague Reykjavik Riga Rome Seville Stockholm Tallinn Valencia Venice Vienna Vilnius Warsaw Zagreb Zurich) ;;
days) candidates=(1 2 3 4 5 7 10 14) ;;
*)
	# Nothing to suggest for other arguments: an empty array.
	printf '[]\n'
	exit 0
	;;
esac

# Keep the candidates that start with what the user typed, ignoring case (one `tr` for all:
# Bash 3.2, the macOS default, has no ${var,,}).
typed="$(printf '%s' "${typed}" | tr '[:upper:]' '[:lower:]')"
matches=()
i=0
while IFS= read -r lower; do
	case "${lower}" in
	"${typed}"*) matches+=("${candidates[${i}]}") ;;
	esac
	i=$((i + 1))
done <<EOF_LIST
$(printf '%s\n' "${candidates[@]}" | tr '[:upper:]' '[:lower:]')
EOF_LIST

# One page: from offset, at most limit values; say whether there are more.
page=()
i="${offset}"
while [ "${i}" -lt "${#matches[@]}" ] && [ "${#page[@]}" -lt "${limit}" ]; do
	page+=("${matches[${i}]}")
	i=$((i + 1))
done
more=false
[ "${i}" -lt "${#matches[@]}" ] && more=true

printf '{"suggestions":['
sep=""
for value in ${page[@]+"${page[@]}"}; do
	printf '%s"%s"' "${sep}" "${value}"
	sep=","
done
printf '],"hasMore":%s,"next":%s}\n' "${more}" "${i}"
