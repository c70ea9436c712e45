import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selfInvocation } from '../process/json-tool.js';
import { shellQuote } from '../process/shell-quote.js';

const written = new Map<string, string>();

/**
 * One path that starts this very mcp-bash (tools get it as MCPBASH_BIN; the UI SDK runs
 * `"$MCPBASH_BIN" ui-template ...`): the native binary itself, or - when running as
 * `node mcp-bash.cjs` - a wrapper script written once into the state dir.
 */
export function selfBinary(stateDir: string): string {
  const [command, ...args] = selfInvocation();
  if (args.length === 0) return command as string;
  const known = written.get(stateDir);
  if (known) return known;
  const path = join(stateDir, 'bin', 'mcp-bash');
  mkdirSync(join(stateDir, 'bin'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\nexec ${selfInvocation().map(shellQuote).join(' ')} "$@"\n`);
  chmodSync(path, 0o755);
  written.set(stateDir, path);
  return path;
}
