#!/usr/bin/env bash
# The one tool of the bootstrap project mcp-bash serves when no project is configured.
set -euo pipefail

cat <<'TEXT'
This mcp-bash server has no project yet, so it only offers this help tool.

An mcp-bash project is a directory with tools/, resources/, prompts/ and server.d/.
To create one and serve it:

  1. mcp-bash new my-server          (or: mkdir my-server && cd my-server && mcp-bash init)
  2. mcp-bash scaffold tool my-tool  (inside the project; then edit tools/my-tool/tool.sh)
  3. mcp-bash validate
  4. mcp-bash config --client claude-desktop
     prints the snippet for your MCP client. It sets MCPBASH_PROJECT_ROOT to the
     project directory and MCPBASH_TOOL_ALLOWLIST, which decides the tools that may run.

Then restart the MCP client. Run `mcp-bash --help` for every command.
TEXT
