import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { projectWithTools } from '../../helpers/fixtures.js';
import { binaryCommand } from '../../helpers/paths.js';
import { eventually, isAlive } from '../../helpers/processes.js';
import { toolEnv } from '../../helpers/run-binary.js';

const OUTPUT_BYTES = 2 * 1024 * 1024;

/** A project with `flood` (a 2 MiB answer) and `hang` (records its sleep's pid, then waits). */
function project(t: Test): { root: string; sleepPid: () => number | undefined } {
  const pidFile = join(t.testdirName, 'sleep.pid');
  const root = projectWithTools(t, 'stalled', {
    flood: `head -c ${OUTPUT_BYTES} /dev/zero | tr '\\0' a`,
    hang: `sleep 1000 &\necho $! > ${JSON.stringify(pidFile)}\nwait`,
  });
  return { root, sleepPid: () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined) };
}

interface Stalled {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
}

/**
 * The binary with a client that sends `calls` after the handshake and never reads stdout:
 * resolves once the server's output has backed up (our read buffer is full, the pipe too).
 */
async function stalledServer(t: Test, root: string, timeoutSecs: string, calls: string[]): Promise<Stalled> {
  const { command, prefix } = binaryCommand();
  const env = toolEnv({
    MCPBASH_PROJECT_ROOT: root,
    MCPBASH_SHUTDOWN_TIMEOUT: timeoutSecs,
    MCPBASH_MAX_TOOL_OUTPUT_SIZE: String(2 * OUTPUT_BYTES),
  });
  const child = spawn(command, prefix, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  calls.forEach((name, index) => {
    send({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: { name, arguments: {} } });
  });
  // stdout is never read: Node fills its buffer up to the high-water mark, then stops.
  const full = () => child.stdout.readableLength >= child.stdout.readableHighWaterMark;
  t.ok(await eventually(full, 20_000), "the server's output backed up");
  return { child, exited };
}

t.test('a signal ends a server whose client stopped reading (stdout flush bounded)', async (t) => {
  const { root } = project(t);
  const { child, exited } = await stalledServer(t, root, '1', ['flood']);
  child.kill('SIGTERM');
  t.equal(await exited, 143, 'exit status 143 once MCPBASH_SHUTDOWN_TIMEOUT has passed');
});

t.test('a second signal ends it at once', async (t) => {
  const { root } = project(t);
  const { child, exited } = await stalledServer(t, root, '600', ['flood']);
  const started = Date.now();
  // Both pending at once: which one the server takes first is up to the kernel and libuv.
  child.kill('SIGTERM');
  child.kill('SIGINT');
  const code = await exited;
  t.ok(code === 143 || code === 130, `the first signal's status (${code})`);
  t.ok(Date.now() - started < 10_000, `well before the 600 s timeout (${Date.now() - started} ms)`);
});

t.test('the end of input is seen while output is backed up: running tools are stopped', async (t) => {
  const { root, sleepPid } = project(t);
  const { child, exited } = await stalledServer(t, root, '1', ['flood', 'hang']);
  t.ok(await eventually(() => sleepPid() !== undefined, 20_000), 'the hanging tool runs');
  child.stdin.end();
  t.equal(await exited, 0, 'a normal end');
  t.notOk(isAlive(sleepPid() as number), "the hanging tool's process was stopped");
});

t.test(
  'a client that reads slowly after its input ends gets every answer whole (MCPBASH_SHUTDOWN_TIMEOUT=0)',
  async (t) => {
    const { root } = project(t);
    const { child, exited } = await stalledServer(t, root, '0', ['flood']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdin.end();
    // Read on, a chunk at a time, pausing after each: slower than the server writes.
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 20);
    });
    t.equal(await exited, 0, 'a normal end');
    await new Promise((resolve) =>
      child.stdout.readableEnded ? resolve(undefined) : child.stdout.once('end', resolve),
    );
    const lines = Buffer.concat(chunks).toString().split('\n').filter(Boolean);
    const answer = lines.map(
      (line) => JSON.parse(line) as { id?: number; result?: { content: Array<{ text: string }> } },
    );
    const flood = answer.find((message) => message.id === 1);
    t.equal(flood?.result?.content[0]?.text.length, OUTPUT_BYTES, 'the 2 MiB answer, whole');
    t.notMatch(stderr, /the client is not reading/, 'and no claim that the client stopped reading');
  },
);
