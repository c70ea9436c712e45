import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { basename, delimiter, extname, isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../config/env-values.js';
import type { JsonToolConfig } from '../config/slices.js';
import { shellQuote } from './shell-quote.js';

/** The JSON processor tools get as MCPBASH_JSON_TOOL / MCPBASH_JSON_TOOL_BIN. */
export interface JsonToolChoice {
  readonly name: 'gojq' | 'jq' | 'none';
  readonly bin: string;
  /** The binary's own jq (no jq or gojq installed; decision D6). */
  readonly builtin: boolean;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable named `name` on PATH. */
export function findOnPath(name: string, pathVariable: string | undefined): string | undefined {
  const suffixes = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of (pathVariable ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const suffix of suffixes) {
      const candidate = join(dir, `${name}${suffix}`);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** How to start this very program again: the SEA binary, or node plus the bundle. */
export function selfInvocation(): string[] {
  const script = process.argv[1];
  if (script && /\.(c|m)?js$|\.ts$/.test(extname(script)) && resolve(script) !== process.execPath) {
    return [process.execPath, resolve(script)];
  }
  return [process.execPath];
}

/**
 * A `jq` wrapper, written once into the state dir: the server's warm built-in jq when the
 * tool has MCPBASH_JQ_SERVICE (the SDK's client), else `mcp-bash jq "$@"` (decision D6).
 */
function builtinWrapper(stateDir: string): string {
  const dir = join(stateDir, 'bin');
  const path = join(dir, 'jq');
  mkdirSync(dir, { recursive: true });
  const self = `${selfInvocation().map(shellQuote).join(' ')} jq "$@"`;
  writeFileSync(
    path,
    [
      '#!/usr/bin/env bash',
      "# mcp-bash's built-in jq (decision D6)",
      'if [ -n "${MCPBASH_JQ_SERVICE-}" ] && [ -r "${MCP_SDK-}/lib/jq-service.sh" ]; then',
      '  . "${MCP_SDK}/lib/jq-service.sh"',
      `  MCPBASH_JSON_TOOL_BIN=${shellQuote(path)} _mcp_jq_service "$@"`,
      '  exit',
      'fi',
      `exec ${self}`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

const jqVersions = new Map<string, boolean>();

/**
 * Whether the jq at `bin` says it is 1.6 or older (`jq --version`, asked once per binary). Such a
 * jq starts several times slower than the warm built-in jq (D299); a version it does not state
 * counts as new.
 */
function isOldJq(bin: string): boolean {
  let old = jqVersions.get(bin);
  if (old === undefined) {
    const printed = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 5000 }).stdout ?? '';
    const match = /jq-(\d+)\.(\d+)/.exec(printed);
    old = match !== null && (Number(match[1]) < 1 || (Number(match[1]) === 1 && Number(match[2]) < 7));
    jqVersions.set(bin, old);
  }
  return old;
}

/**
 * Which JSON tool the SDK gets: MCPBASH_JSON_TOOL_BIN (not honoured for root unless
 * MCPBASH_ALLOW_JSON_TOOL_OVERRIDE_FOR_ROOT), MCPBASH_JSON_TOOL (`jq` or `gojq` first, whatever
 * its version; `none`), else the fastest (D299): gojq, then a jq of 1.7 or later, from PATH,
 * else the binary's own jq, warm - so tools always get full mode.
 * Writes nothing: for the built-in jq, `bin` is empty (chooseJsonTool writes its wrapper).
 */
export function pickJsonTool(config: JsonToolConfig, env: Env): JsonToolChoice {
  const asRoot = process.getuid?.() === 0 && !config.binForRoot;
  const explicitBin = config.bin;
  if (explicitBin && !asRoot && isAbsolute(explicitBin) && isExecutable(explicitBin)) {
    return { name: basename(explicitBin).includes('gojq') ? 'gojq' : 'jq', bin: explicitBin, builtin: false };
  }
  if (config.tool === 'none') return { name: 'none', bin: '', builtin: false };
  const order = config.tool === 'jq' ? ['jq', 'gojq'] : ['gojq', 'jq'];
  for (const name of order) {
    const bin = findOnPath(name, env.PATH);
    if (bin && (config.tool !== 'auto' || name !== 'jq' || !isOldJq(bin))) {
      return { name: name as 'gojq' | 'jq', bin, builtin: false };
    }
  }
  return { name: 'jq', bin: '', builtin: true };
}

/**
 * pickJsonTool, with the built-in jq's wrapper script written into the state dir when a
 * tool first needs it (`bin` is read when a call starts). A wrapper that cannot be written
 * (a full TMPDIR) is tried again on the next call; meanwhile `bin` is empty.
 */
export function chooseJsonTool(config: JsonToolConfig, env: Env, stateDir: string): JsonToolChoice {
  const choice = pickJsonTool(config, env);
  if (!choice.builtin) return choice;
  let written: string | undefined;
  return {
    name: choice.name,
    builtin: true,
    get bin() {
      try {
        written ??= builtinWrapper(stateDir);
      } catch {
        // The call itself needs the state dir too, and reports why it cannot have it.
      }
      return written ?? '';
    },
  };
}
