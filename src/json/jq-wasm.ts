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

/** jq 1.8 (the real one, compiled to WebAssembly). */
export interface JqEngine {
  /** Runs jq with exactly these arguments (as after `jq` on a command line) and this stdin. */
  run(argv: readonly string[], stdin: string): Promise<JqRunResult>;
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

/** One instance of the jq module: its memory, and so its state, are its own. */
export interface JqHandle {
  raw(input: string, query: string, flags: string[]): JqRunResult;
}

/** A compiled WebAssembly module (opaque here: the project's TypeScript libs carry no WebAssembly types). */
type CompiledWasm = object;

/** Node's global WebAssembly, as far as it is used here. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> } })
  .WebAssembly;

interface JqWasmModule {
  loadJq(options: { wasmModule: CompiledWasm }): Promise<JqHandle>;
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
  // Compiled once: a fresh instance of it takes about a millisecond.
  const wasmModule = await wasm.compile(readFileSync(files.wasm));
  const instantiate = () => module.exports.loadJq({ wasmModule });
  if (oneShot) {
    const handle = await instantiate();
    return { run: async (argv, stdin) => handle.raw(stdin, ARGV_MARKER, [...argv]) };
  }
  return reusedEngine(instantiate);
}

/**
 * One instance for run after run, as long as it is clean. jq keeps its input state between
 * runs of an instance: a program that stops reading early (`-n` with `first(inputs)`, `halt`,
 * a parse error mid-stream) leaves the rest of its input to the next run, which would print
 * another call's data. So after such a run a probe reads empty input; an instance that still
 * yields anything is dropped for a fresh one. The probe is a whole jq run (as long as the run
 * itself), so it is skipped after a run that read all of its input (see mayLeaveInput).
 */
export function reusedEngine(instantiate: () => Promise<JqHandle>): JqEngine {
  // A failed instantiation is seen by the run that awaits it (never an unhandled rejection),
  // and the next run tries again.
  const fresh = () => {
    const made = instantiate();
    made.catch(() => {
      if (current === made) current = undefined;
    });
    return made;
  };
  let current: Promise<JqHandle> | undefined = fresh();
  return {
    async run(argv, stdin) {
      // A run that waited while the instance was replaced must use the new one.
      let pending: Promise<JqHandle>;
      let handle: JqHandle;
      do {
        current ??= fresh();
        pending = current;
        handle = await pending;
      } while (pending !== current);
      try {
        const result = handle.raw(stdin, ARGV_MARKER, [...argv]);
        if (mayLeaveInput(argv, result)) {
          const probe = handle.raw('', ARGV_MARKER, ['-c', '.']);
          if (probe.exitCode !== 0 || probe.stdout !== '' || probe.stderr !== '') current = fresh();
        }
        return result;
      } catch (error) {
        // The module aborted (a stack overflow, say): its state is unknown, so it is not reused.
        current = fresh();
        throw error;
      }
    },
  };
}

/**
 * Whether a run may have left input unread. Without `-n`, jq runs the program on each input
 * until its input ends; only an error (a parse error stops the reading; any failure counts)
 * or `halt`/`halt_error` stop it earlier. So a run is known to have read everything when it
 * exited 0, was not given `-n`, and neither halts nor takes code jq reads from elsewhere (a
 * file, a module): no argument has a short-option cluster with n, f or L, their long forms,
 * or the words halt, import or include. Anything else (even a value that only looks like one)
 * is probed.
 */
function mayLeaveInput(argv: readonly string[], result: JqRunResult): boolean {
  if (result.exitCode !== 0) return true;
  return argv.some(
    (arg) => /^-[A-Za-z]*[nfL]|^--(null-input|from-file|library-path)/.test(arg) || /halt|import|include/.test(arg),
  );
}
