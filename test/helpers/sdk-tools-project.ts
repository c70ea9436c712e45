import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './scratch.js';

/** A Bash script that uses the SDK: `body` under `set -euo pipefail`, after sourcing it. */
export const sdkScript = (body: string) =>
  `#!/usr/bin/env bash\nset -euo pipefail\nsource "\${MCP_SDK}/tool-sdk.sh"\n${body}\n`;

/**
 * A scratch project of Bash tools that use the SDK: each body runs under `set -euo
 * pipefail` after `source "${MCP_SDK}/tool-sdk.sh"`, as tools/<name>/tool.sh, with an
 * object inputSchema. Returns the project root.
 */
export function sdkToolsProject(prefix: string, tools: Readonly<Record<string, string>>): string {
  const root = scratchDir(prefix);
  mkdirSync(join(root, 'server.d'));
  writeFileSync(join(root, 'server.d', 'server.meta.json'), JSON.stringify({ name: prefix.replace(/-+$/, '') }));
  for (const [name, body] of Object.entries(tools)) {
    mkdirSync(join(root, 'tools', name), { recursive: true });
    writeFileSync(join(root, 'tools', name, 'tool.sh'), sdkScript(body), { mode: 0o755 });
    writeFileSync(
      join(root, 'tools', name, 'tool.meta.json'),
      JSON.stringify({ name, description: `${name} (an SDK tool)`, inputSchema: { type: 'object' } }),
    );
  }
  return root;
}
