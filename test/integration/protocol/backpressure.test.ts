import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { binaryCommand } from '../../helpers/paths.js';
import { toolEnv } from '../../helpers/run-binary.js';

const MIB = 1024 * 1024;
const CALLS = 30;
const OUTPUT_BYTES = 4 * MIB;

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** Resolves once `read()` has returned the same value for `quietMs`, or `done` holds. */
async function settled(read: () => number, done: (value: number) => boolean, quietMs: number): Promise<number> {
  let last = read();
  let since = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const value = read();
    if (done(value)) return value;
    if (value !== last) {
      last = value;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return value;
  }
}

t.test(
  'a client that stops reading: the server stops starting calls, stays bounded in memory, loses nothing',
  { skip: existsSync('/proc/self/status') ? false : 'needs /proc' },
  async (t) => {
    const root = t.testdir({ 'server.d': { 'server.meta.json': '{"name":"flood"}' } });
    const counter = join(root, 'started');
    const tool = join(root, 'tools', 'big');
    mkdirSync(tool, { recursive: true });
    writeFileSync(
      join(tool, 'tool.sh'),
      `#!/usr/bin/env bash\necho x >> ${JSON.stringify(counter)}\nhead -c ${OUTPUT_BYTES} /dev/zero | tr '\\0' a\n`,
    );
    chmodSync(join(tool, 'tool.sh'), 0o755);
    writeFileSync(join(tool, 'tool.meta.json'), '{"name":"big"}');
    const started = () => (existsSync(counter) ? readFileSync(counter, 'utf8').length / 2 : 0);

    const { command, prefix } = binaryCommand();
    const env = toolEnv({
      MCPBASH_PROJECT_ROOT: root,
      MCPBASH_MAX_CONCURRENT_REQUESTS: '2',
      MCPBASH_MAX_TOOL_OUTPUT_SIZE: String(2 * OUTPUT_BYTES),
    });
    const child = spawn(command, prefix, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    t.teardown(() => child.kill('SIGKILL'));
    const pid = child.pid ?? 0;
    const lines: string[] = [];
    // The answers are 4 MiB lines: the pieces of the unfinished one are kept apart and only
    // the new chunk is searched for its end (searching the whole buffer each time cost ~6 s).
    let pieces: string[] = [];
    child.stdout.setEncoding('utf8');
    const firstLine = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: string) => {
        let start = 0;
        let newline = chunk.indexOf('\n');
        while (newline !== -1) {
          pieces.push(chunk.slice(start, newline));
          lines.push(pieces.join(''));
          pieces = [];
          start = newline + 1;
          newline = chunk.indexOf('\n', start);
        }
        if (start < chunk.length) pieces.push(chunk.slice(start));
        if (lines.length > 0) resolve();
      });
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    await firstLine;
    child.stdout.pause();
    const idle = rssMiB(pid);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (let id = 1; id <= CALLS; id += 1) send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'big' } });

    const stalledAt = await settled(started, (count) => count >= CALLS, 1000);
    t.ok(stalledAt <= 4, `with the client not reading, ${stalledAt} of ${CALLS} calls started`);
    // An answer costs ~17 MiB while it is built and queued (the capture, its text, the JSON
    // line, the write's buffer): all 30 at once would be ~500 MiB. While the client is behind,
    // only the few calls that started before the writer filled up may hold memory.
    const stalledPeak = peakRssMiB(pid) - idle;
    t.ok(stalledPeak < 120, `while the client is not reading: peak RSS ${stalledPeak.toFixed(0)} MiB above idle`);

    child.stdout.resume();
    const answered = () =>
      lines.filter((line) => line.startsWith('{"jsonrpc":"2.0","id":') && !line.includes('"id":0,'));
    while (answered().length < CALLS) await new Promise((resolve) => setTimeout(resolve, 20));
    const texts = answered().map((line) => (JSON.parse(line) as { result: { content: [{ text: string }] } }).result);
    t.equal(texts.length, CALLS, 'every call answered');
    t.ok(
      texts.every((result) => result.content[0].text.length === OUTPUT_BYTES),
      'every answer whole',
    );
    const peak = peakRssMiB(pid);
    // Reading again, two calls run at a time (MCPBASH_MAX_CONCURRENT_REQUESTS); what is above
    // two answers' worth is garbage the collector has not yet returned.
    t.ok(peak - idle < 220, `peak RSS ${peak.toFixed(0)} MiB, ${(peak - idle).toFixed(0)} above idle`);
    child.stdin.end();
  },
);
