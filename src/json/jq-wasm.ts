import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { compileFunction } from 'node:vm';

/** What one run of jq produced: untrimmed stdout and stderr, and jq's exit status. */
export interface JqRunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** jq 1.8 (the real one, compiled to WebAssembly), ready to run synchronously. */
export interface JqEngine {
  /** Runs jq with exactly these arguments (as after `jq` on a command line) and this stdin. */
  run(argv: readonly string[], stdin: string): JqRunResult;
}

/** Where jq-wasm's loader and module live: the extracted home, or a source checkout. */
export interface JqWasmFiles {
  readonly loader: string;
  readonly wasm: string;
}

/**
 * jq-wasm's API passes its own extra arguments (a fixed stdin path) and trims stdout; a CLI
 * needs neither. These edits to its loader give a raw-argv, untrimmed entry point. They are
 * checked on every load: a jq-wasm upgrade that moves them fails loudly here and in the tests.
 */
const ARGV_MARKER = '\u0000mcpbash-argv';
const LOADER_PATCHES: ReadonlyArray<{ readonly find: string; readonly replace: string }> = [
  {
    find: 'return { stdout: stdoutSink.toString().trim(), stderr: stderrSink.toString().trim(), exitCode };',
    replace: 'return { stdout: stdoutSink.toString(), stderr: stderrSink.toString(), exitCode };',
  },
  {
    find: 'const args = [...flags, query, STDIN_PATH];',
    replace: `const args = query === ${JSON.stringify(ARGV_MARKER)} ? flags : [...flags, query, STDIN_PATH];`,
  },
];

interface JqWasmModule {
  loadJq(options: { wasmBinary: Uint8Array }): Promise<{
    raw(input: string, query: string, flags: string[]): JqRunResult;
  }>;
}

/** Finds jq-wasm under a framework home (`lib/jq-wasm/`) or a checkout's node_modules. */
export function locateJqWasm(homeRoot: string): JqWasmFiles | null {
  const candidates: JqWasmFiles[] = [
    { loader: join(homeRoot, 'lib', 'jq-wasm', 'index.cjs'), wasm: join(homeRoot, 'lib', 'jq-wasm', 'jq.wasm') },
    {
      loader: join(homeRoot, 'node_modules', 'jq-wasm', 'dist', 'index.cjs'),
      wasm: join(homeRoot, 'node_modules', 'jq-wasm', 'dist', 'build', 'jq.wasm'),
    },
  ];
  return candidates.find((files) => existsSync(files.loader) && existsSync(files.wasm)) ?? null;
}

/** Applies LOADER_PATCHES, throwing when jq-wasm's loader no longer has the expected code. */
export function patchLoaderSource(source: string): string {
  let patched = source;
  for (const { find, replace } of LOADER_PATCHES) {
    if (!patched.includes(find)) {
      throw new Error(`unexpected jq-wasm loader: cannot find \`${find}\``);
    }
    patched = patched.replace(find, replace);
  }
  return patched;
}

/**
 * Loads jq from files on disk. Only `mcp-bash jq` and `mcp-bash jq-service` call this, so the
 * 1 MB WebAssembly module is never read or compiled when the server starts. Inside a Node
 * single-executable binary plain `require` loads only built-in modules, hence the compile
 * from source with a `createRequire` rooted at the loader's real path.
 *
 * `oneShot`: for a process that runs jq once, V8's optimising tier for WebAssembly costs
 * more (about 35 ms of compilation, and waiting for it at exit) than it saves, so only the
 * baseline tier is used; a long-lived service wants the optimised code.
 */
export async function loadJqEngine(files: JqWasmFiles, { oneShot = true } = {}): Promise<JqEngine> {
  // This process only runs jq, so the flag affects nothing else.
  if (oneShot) setFlagsFromString('--liftoff-only');
  const source = patchLoaderSource(readFileSync(files.loader, 'utf8'));
  const module = { exports: {} as JqWasmModule };
  const factory = compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], {
    filename: files.loader,
  });
  factory(module.exports, createRequire(files.loader), module, files.loader, dirname(files.loader));
  const handle = await module.exports.loadJq({ wasmBinary: readFileSync(files.wasm) });
  return {
    run: (argv, stdin) => handle.raw(stdin, ARGV_MARKER, [...argv]),
  };
}
