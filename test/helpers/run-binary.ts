import { spawn } from 'node:child_process';
import { binaryCommand } from './paths.js';
import { scratchDir, scratchTmp } from './scratch.js';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string | Buffer;
  timeoutMs?: number;
  /** Leave stdin open (as a client does) instead of ending it after `input`. */
  keepStdinOpen?: boolean;
}

/**
 * Variables from the developer's shell that would change what the binary does, and the test
 * runner's: its NODE_OPTIONS would load tap's coverage hooks into every binary a test starts
 * (the binary is a Node SEA and honours NODE_OPTIONS), costing each start time and writing
 * coverage of the bundle that nobody reads.
 */
const leakyVariables = /^(MCPBASH_|MCP_|XDG_DATA_HOME$|NO_COLOR$|FORCE_COLOR$|NODE_OPTIONS$|NODE_V8_COVERAGE$|_TAPJS_)/;

/**
 * An environment for the binary with a private, empty HOME and nothing of ours inherited:
 * each test sees a first run unless it says otherwise. TMPDIR is the test process's scratch
 * dir, so the servers' state dirs are removed with it.
 */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!leakyVariables.test(key)) env[key] = value;
  }
  const home = scratchDir('mcpbash-test-home-');
  return { ...env, HOME: home, USERPROFILE: home, TMPDIR: scratchTmp(), ...extra };
}

/** Runs the binary to completion, capturing its output. */
export function runBinary(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const { command, prefix } = binaryCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, ...args], {
      env: options.env ?? isolatedEnv(),
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
    child.stdin.on('error', () => {});
    if (options.keepStdinOpen) {
      if (options.input !== undefined) child.stdin.write(options.input);
      child.on('exit', () => child.stdin.destroy());
    } else child.stdin.end(options.input ?? '');
  });
}

/** isolatedEnv plus MCPBASH_TOOL_ALLOWLIST="*": most tool tests are not about policy. */
export function toolEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return isolatedEnv({ MCPBASH_TOOL_ALLOWLIST: '*', ...extra });
}
