#!/usr/bin/env bash
# Divides two integers. A call the tool cannot answer (division by zero) is not a protocol
# error: it is an error result with a hint, which the model reads and can act on.
set -euo pipefail
# shellcheck source=/dev/null
source "${MCP_SDK:?MCP_SDK is set by mcp-bash}/tool-sdk.sh"

# No --default: a missing value fails the call with -32602 "<filter> is required".
dividend="$(mcp_args_int '.dividend')"
divisor="$(mcp_args_int '.divisor')"

if [ "${divisor}" -eq 0 ]; then
	mcp_error validation_error "Cannot divide by zero" --hint "Pass a divisor other than 0" --data "{\"dividend\":${dividend}}"
	exit 0
fi

mcp_result_success "{\"quotient\":$((dividend / divisor)),\"remainder\":$((dividend % divisor))}"
