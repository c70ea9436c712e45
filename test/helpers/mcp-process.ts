import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { type Ended, type InitOptions, initialized, McpSession, type Message } from './mcp-session.js';
import { binaryCommand } from './paths.js';
import { isolatedEnv } from './run-binary.js';

export interface StartOptions {
  /** Served as MCPBASH_PROJECT_ROOT (omit for getting-started mode). */
  projectRoot?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  args?: string[];
  /**
   * Starts the binary through this command, which gets the binary and its arguments after
   * it (e.g. `['bash', '-c', script, 'wrapper']`): for tests about the server's parent.
   */
  via?: string[];
}

/**
 * The real binary as an MCP server, driven line by line (see McpSession), and how the
 * process ends.
 */
export class McpProcess extends McpSession {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<Ended>;

  constructor(options: StartOptions = {}) {
    super();
    const { command, prefix } = binaryCommand();
    const env = options.env ?? isolatedEnv();
    if (options.projectRoot) env.MCPBASH_PROJECT_ROOT = options.projectRoot;
    const argv = [command, ...prefix, ...(options.args ?? [])];
    const [program, ...rest] = options.via ? [...options.via, ...argv] : argv;
    this.child = spawn(program as string, rest, { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => this.onStderr(chunk.toString('utf8')));
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  protected write(data: string | Buffer): void {
    this.child.stdin.write(data);
  }

  closeInput(): void {
    this.child.stdin.end();
  }

  protected kill(): void {
    this.child.kill('SIGKILL');
  }
}

/** Starts a server and initializes it. */
export function startInitialized(options: StartOptions & InitOptions = {}): Promise<McpProcess> {
  return initialized(new McpProcess(options), options);
}

export type { Message };
