#!/usr/bin/env bash
# Repeats a text: one argument of each kind (required string, bounded integer, boolean,
# optional string with a default) plus a rule of its own.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

# Required: a missing, null or empty value ends the call with -32602 and this message.
text="$(mcp_args_require '.text' 'text is required: pass the text to repeat')"

# Integers and booleans: defaults, and range checks the error message spells out.
count="$(mcp_args_int '.count' --default 3 --min 1 --max 10)"
uppercase="$(mcp_args_bool '.uppercase' --default false)"

# Optional strings: mcp_args_get takes any jq filter, so `//` supplies the default.
separator="$(mcp_args_get '.separator // " "')"

# A rule no helper knows about: report it as invalid arguments too, with data the client
# (or the model) can use to fix the call.
case "${text}" in
*[![:space:]]*) ;;
*) mcp_fail_invalid_args "text must contain a non-space character" '{"field":"text"}' ;;
esac

if [ "${uppercase}" = true ]; then
	text="$(printf '%s' "${text}" | tr '[:lower:]' '[:upper:]')"
fi

result="${text}"
i=1
while [ "${i}" -lt "${count}" ]; do
	result="${result}${separator}${text}"
	i=$((i + 1))
done

mcp_result_success "$(printf '{"result":%s,"count":%s,"uppercase":%s}' "$(mcp_json_escape "${result}")" "${count}" "${uppercase}")"
