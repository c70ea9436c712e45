#!/usr/bin/env bash
# Smoke test for the __NAME__ tool: runs it once through `mcp-bash run-tool` and checks
# that it answered with a successful result. Update sample_args when tool.meta.json changes.
# Usage: tools/__NAME__/smoke.sh   (MCPBASH_BIN=/path/to/mcp-bash to pick the binary)
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
project_root="$(cd "${script_dir}/../.." && pwd)"
export MCPBASH_PROJECT_ROOT="${MCPBASH_PROJECT_ROOT:-${project_root}}"

mcpbash="${MCPBASH_BIN:-}"
if [ -z "${mcpbash}" ] && command -v mcp-bash >/dev/null 2>&1; then
	mcpbash="$(command -v mcp-bash)"
fi
if [ -z "${mcpbash}" ] && [ -x "${HOME}/.local/bin/mcp-bash" ]; then
	mcpbash="${HOME}/.local/bin/mcp-bash"
fi
if [ -z "${mcpbash}" ]; then
	printf 'smoke: mcp-bash not found: put it on PATH or set MCPBASH_BIN\n' >&2
	exit 1
fi

sample_args='{"exampleArg":"smoke test"}'

output=""
if ! output="$("${mcpbash}" run-tool __NAME__ --allow-self --args "${sample_args}")"; then
	printf 'Smoke test FAILED: the tool did not run successfully\n%s\n' "${output}" >&2
	exit 1
fi

# The binary's own jq checks the result, so no jq installation is needed.
if ! printf '%s' "${output}" | "${mcpbash}" jq -e '.isError != true and (.content | length > 0)' >/dev/null; then
	printf 'Smoke test FAILED: unexpected result\n%s\n' "${output}" >&2
	exit 1
fi

printf 'Smoke test passed for __NAME__.\n'
