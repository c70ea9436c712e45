import { PassThrough } from 'node:stream';
import type { AssetBundle } from '../../src/assets/extract-archive.js';
import { runCli } from '../../src/cli/dispatch.js';
import { type Ended, type InitOptions, initialized, McpSession } from './mcp-session.js';
import { repoRoot } from './paths.js';
import { isolatedEnv } from './run-binary.js';

export interface InProcessOptions {
  /** Served as MCPBASH_PROJECT_ROOT (omit for getting-started mode). */
  projectRoot?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The command line after `mcp-bash` (none: the server). */
  args?: string[];
}

/** The framework files come from this checkout (MCPBASH_HOME), so nothing is extracted. */
const noAssets: AssetBundle = {
  version: '0',
  contentHash: 'in-process',
  fileCount: 0,
  sentinel: 'sdk/tool-sdk.sh',
  archive: () => {
    throw new Error('in-process servers use MCPBASH_HOME, not the embedded framework files');
  },
};

/**
 * The server as the binary runs it (the CLI's entry point, `runCli`), in this process, over
 * in-memory stdio: the same session as McpProcess without starting a binary, for tests of
 * the protocol where a child process adds nothing. Tools and providers still run as real
 * processes. The framework files are this checkout's (MCPBASH_HOME), and tap measures the
 * server's code coverage here, which it cannot in a child process.
 */
export class InProcessServer extends McpSession {
  readonly exited: Promise<Ended>;
  private ended = false;
  private readonly input = new PassThrough();

  constructor(options: InProcessOptions = {}) {
    super();
    const env = options.env ?? isolatedEnv();
    env.MCPBASH_HOME = repoRoot;
    if (options.projectRoot) env.MCPBASH_PROJECT_ROOT = options.projectRoot;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stdout.on('data', (chunk: Buffer) => this.onStdout(chunk.toString('utf8')));
    stderr.on('data', (chunk: Buffer) => this.onStderr(chunk.toString('utf8')));
    // Like a process's exit after its pipes close: everything written has been read.
    const drained = (stream: PassThrough) =>
      new Promise<void>((resolve) => {
        stream.once('end', resolve);
        stream.end();
      });
    this.exited = runCli(options.args ?? [], {
      io: { stdin: this.input, stdout, stderr, env, cwd: options.cwd ?? process.cwd() },
      assets: noAssets,
    })
      .then(
        (code) => ({ code, signal: null }),
        (error: unknown) => {
          stderr.write(`in-process server threw: ${(error as Error).stack ?? String(error)}\n`);
          return { code: 70, signal: null };
        },
      )
      .then(async (ended: Ended) => {
        await Promise.all([drained(stdout), drained(stderr)]);
        this.ended = true;
        return ended;
      });
  }

  get running(): boolean {
    return !this.ended;
  }

  // What the client writes arrives in a later turn of the event loop, as it would through
  // a pipe: the server may rely on a turn passing between two requests (the registries share
  // one walk of tools/ within a turn), and a test that changes files between requests would
  // otherwise change them inside the server's turn.
  protected write(data: string | Buffer): void {
    setImmediate(() => {
      if (!this.input.destroyed) this.input.write(data);
    });
  }

  closeInput(): void {
    setImmediate(() => this.input.end());
  }

  protected kill(): void {
    // No process to kill: ending the input is all a client can do; the server drains and stops.
    this.input.destroy();
  }
}

/** Starts an in-process server and initializes it. */
export function startInProcess(options: InProcessOptions & InitOptions = {}): Promise<InProcessServer> {
  return initialized(new InProcessServer(options), options);
}
