/**
 * Runs Bash snippets against the tool SDK with the environment the server gives a tool,
 * built by the server's own code (src/runner/tool-environment.ts): MCP_SDK, the payload
 * variables and the per-call files of docs/TOOL-CONTRACT.md inside a private directory.
 * Every snippet runs under `set -euo pipefail` after sourcing the SDK.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type FrameworkHome, frameworkHomeAt } from '../../src/assets/framework-home.js';
import { loadServerConfig } from '../../src/config/server-config.js';
import { projectLayout } from '../../src/project/project-layout.js';
import { rootEntry } from '../../src/project/roots.js';
import { loadServerIdentity } from '../../src/project/server-identity.js';
import { CallDirectoryPool, type CallPaths } from '../../src/runner/call-directory.js';
import { buildToolEnvironment } from '../../src/runner/tool-environment.js';
import { builtBinary, repoRoot } from './paths.js';
import { scratchDir } from './scratch.js';

export const sdkDir = join(repoRoot, 'sdk-sh');
export const providersDir = join(repoRoot, 'assets', 'providers');

/** Which JSON processor the SDK is given. */
export interface JsonTool {
  /** jq | gojq | builtin (`mcp-bash jq`) | minimal (no JSON tool at all). */
  readonly name: 'jq' | 'gojq' | 'builtin' | 'minimal';
  /** MCPBASH_JSON_TOOL_BIN, absent in minimal mode. */
  readonly bin?: string;
  /** Why this variant cannot run here, if it cannot. */
  readonly skip?: string;
}

function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

const wrappers = new Map<string, string>();

/**
 * A script named `name` that runs the built binary (builtBinary: the native one, or the .cjs
 * bundle under this node) with `prefix` before its own arguments. Its HOME is shared, so
 * the framework files are extracted once.
 */
function binaryWrapper(name: string, prefix: string): string | undefined {
  const known = wrappers.get(name);
  if (known) return known;
  const bin = builtBinary();
  if (!bin) return undefined;
  const dir = scratchDir(`mcpbash-${name}-`);
  const home = join(dir, 'home');
  mkdirSync(home);
  const exec = bin.endsWith('.cjs') ? `"${process.execPath}" "${bin}"` : `"${bin}"`;
  const wrapper = join(dir, name);
  writeFileSync(
    wrapper,
    // NODE_OPTIONS from the test runner (its TypeScript loader) would slow every call.
    `#!/bin/sh\nunset MCPBASH_HOME XDG_DATA_HOME NODE_OPTIONS\nHOME="${home}" exec ${exec} ${prefix}"$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  wrappers.set(name, wrapper);
  return wrapper;
}

/** The built-in jq of the built binary, as the server gives tools when no jq is installed. */
export function builtinJqWrapper(): string | undefined {
  return binaryWrapper('jq', 'jq ');
}

/** The built binary itself, as tools find it in MCPBASH_BIN. */
export function mcpBashWrapper(): string | undefined {
  return binaryWrapper('mcp-bash', '');
}

/** Every JSON tool variant, each with a skip reason when it is not available here. */
export function jsonTools(): JsonTool[] {
  const jq = which('jq');
  const gojq = which('gojq');
  const builtin = builtinJqWrapper();
  return [
    jq ? { name: 'jq', bin: jq } : { name: 'jq', skip: 'jq is not installed' },
    gojq ? { name: 'gojq', bin: gojq } : { name: 'gojq', skip: 'gojq is not installed' },
    builtin ? { name: 'builtin', bin: builtin } : { name: 'builtin', skip: 'mcp-bash is not built (npm run build)' },
    { name: 'minimal' },
  ];
}

/** The variants that have a JSON processor. */
export function fullJsonTools(): JsonTool[] {
  return jsonTools().filter((tool) => tool.name !== 'minimal');
}

export interface SdkCallOptions {
  readonly tool?: JsonTool;
  /** The arguments object (MCP_TOOL_ARGS_JSON); a string is used verbatim. */
  readonly args?: unknown;
  /** Put the arguments in MCP_TOOL_ARGS_FILE instead, as the server does for large payloads. */
  readonly argsInFile?: boolean;
  readonly meta?: unknown;
  readonly progressToken?: string;
  readonly roots?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Directories put first on PATH (fake commands). */
  readonly pathPrefix?: readonly string[];
  readonly timeoutMs?: number;
  readonly cwd?: string;
}

export interface SdkRunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The server's own framework home for this checkout (MCP_SDK is sdk-sh/). */
const home = frameworkHomeAt(repoRoot) as FrameworkHome;

/** Variables of the test runner's environment that the server would not have had. */
const notServerVariables = /^(MCPBASH_|MCP_|NODE_OPTIONS$|NODE_V8_COVERAGE$|_TAPJS_)/;

/**
 * A project, a state dir and one tool call's private directory, and the environment the
 * server gives a tool for a call: built by the server's own buildToolEnvironment, in its
 * default (minimal) mode, for a call directory taken from the server's own pool. The files
 * are the call's: none exists until the SDK (or the test) writes it, as with the server.
 */
export class SdkSandbox {
  readonly dir: string;
  readonly project: string;
  readonly stateDir: string;
  readonly files: {
    readonly progress: string;
    readonly log: string;
    readonly error: string;
    readonly resources: string;
    readonly cancel: string;
    readonly elicitRequest: string;
    readonly elicitResponse: string;
    readonly sampleRequest: string;
    readonly sampleResponse: string;
    readonly debug: string;
    readonly args: string;
  };
  readonly fakeBin: string;
  private readonly paths: CallPaths;

  constructor(dir: string) {
    this.dir = dir;
    this.project = join(dir, 'project');
    this.stateDir = join(dir, 'state');
    mkdirSync(join(this.project, 'tools', 'sdk-test'), { recursive: true });
    mkdirSync(this.stateDir, { recursive: true, mode: 0o700 });
    this.paths = new CallDirectoryPool(this.stateDir).create();
    this.fakeBin = join(dir, 'fake-bin');
    mkdirSync(this.fakeBin, { recursive: true });
    this.files = {
      progress: this.paths.progress,
      log: this.paths.log,
      error: this.paths.error,
      resources: this.paths.resources,
      cancel: this.paths.cancel,
      elicitRequest: this.paths.elicitRequest,
      elicitResponse: this.paths.elicitResponse,
      sampleRequest: this.paths.sampleRequest,
      sampleResponse: this.paths.sampleResponse,
      debug: this.paths.debugLog,
      args: this.paths.args,
    };
  }

  /** The environment for one call. */
  env(options: SdkCallOptions = {}): NodeJS.ProcessEnv {
    const tool = options.tool ?? { name: 'minimal' };
    const serverEnv: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (!notServerVariables.test(key)) serverEnv[key] = value;
    }
    Object.assign(serverEnv, {
      PATH: [...(options.pathPrefix ?? []), this.fakeBin, process.env.PATH ?? ''].join(delimiter),
      LANG: 'C.UTF-8',
      TMPDIR: this.dir,
    });
    const verbatimArgs = typeof options.args === 'string' ? options.args : undefined;
    const layout = projectLayout(this.project, {});
    const env = buildToolEnvironment({
      serverEnv,
      mode: 'minimal',
      allowlist: [],
      layout,
      home,
      identity: loadServerIdentity(layout),
      stateDir: this.stateDir,
      jsonTool: {
        name: tool.name === 'minimal' ? 'none' : tool.name === 'gojq' ? 'gojq' : 'jq',
        bin: tool.bin ?? '',
        builtin: false,
      },
      jqService: undefined,
      minimalMode: tool.name === 'minimal',
      toolName: 'sdk-test',
      toolPath: join(layout.toolsDir, 'sdk-test', 'tool.sh'),
      metadata: { name: 'sdk-test' },
      args: verbatimArgs === undefined ? (options.args ?? {}) : {},
      meta: options.meta ?? {},
      progressToken: options.progressToken,
      paths: this.paths,
      roots: (options.roots ?? []).map((path) => rootEntry(path)),
      elicitationSupported: false,
      samplingSupported: false,
      clientSupportsUi: undefined,
      // Above the threshold the server moves payloads into files: 0 moves them all.
      payloadThreshold: options.argsInFile ? 0 : loadServerConfig({}).envPayloadThreshold,
      workerKey: 'sdk-test',
      logLevel: 'info',
      version: '2.0.0-test',
    });
    if (verbatimArgs !== undefined) {
      // Text the server would never send (it parses the arguments): for the SDK's own checks.
      if (options.argsInFile) writeFileSync(this.paths.args, verbatimArgs);
      else env.MCP_TOOL_ARGS_JSON = verbatimArgs;
    }
    for (const [key, value] of Object.entries(options.env ?? {})) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
    return env;
  }

  /** Puts an executable fake command on this sandbox's PATH. */
  fakeCommand(name: string, script: string): string {
    const file = join(this.fakeBin, name);
    writeFileSync(file, `#!/usr/bin/env bash\n${script}\n`);
    chmodSync(file, 0o755);
    return file;
  }

  /** Sources the SDK under `set -euo pipefail` and runs SCRIPT. */
  run(script: string, options: SdkCallOptions = {}): Promise<SdkRunResult> {
    const full = `set -euo pipefail\nsource "$MCP_SDK/tool-sdk.sh"\n${script}\n`;
    return runBash(full, this.env(options), options);
  }

  /** Runs SCRIPT without sourcing the SDK (providers, plain commands). */
  runPlain(script: string, options: SdkCallOptions = {}): Promise<SdkRunResult> {
    return runBash(`set -euo pipefail\n${script}\n`, this.env(options), options);
  }

  read(file: keyof SdkSandbox['files']): string {
    const path = this.files[file];
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  }

  /** The JSON lines of a stream file, parsed. */
  lines(file: 'progress' | 'log'): unknown[] {
    return this.read(file)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  }
}

export function runBash(
  script: string,
  env: NodeJS.ProcessEnv,
  options: { timeoutMs?: number; cwd?: string } = {},
): Promise<SdkRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** The part of a tap test these helpers use. */
export interface TapLike {
  testdir(): string;
  teardown(fn: () => unknown): void;
}

/** A fresh sandbox in a tap test's directory. */
export function sandbox(t: Pick<TapLike, 'testdir'>): SdkSandbox {
  return new SdkSandbox(t.testdir());
}

/** Quotes a string for a Bash single-quoted word. */
export function sh(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
