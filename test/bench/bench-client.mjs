// A minimal newline-delimited JSON-RPC client for the benchmark, and process memory readings.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const now = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Starts a server (`command` + `args`) and returns request/notify/close plus `ready`, which
 * settles after initialize and notifications/initialized, and `strays()`, the number of
 * answers that came under an id with no request pending. `readDelayMs` makes a slow reader:
 * stdout is paused for that long after every chunk.
 */
export function startServer(command, args, env, { readDelayMs = 0 } = {}) {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map();
  let buffer = '';
  let nextId = 1;
  // Answers under an id that has none pending: a duplicate, or an id never sent.
  let strays = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const message = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      const resolve = pending.get(message.id);
      if (resolve && message.method === undefined) {
        pending.delete(message.id);
        resolve(message);
      } else if (message.method === undefined) {
        strays += 1;
      }
      newline = buffer.indexOf('\n');
    }
    if (readDelayMs > 0) {
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), readDelayMs);
    }
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const close = async () => {
    child.stdin.end();
    await exited;
  };
  const ready = (async () => {
    await request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    });
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  })();
  return { pid: child.pid, request, close, ready, strays: () => strays };
}

/** A request that must succeed: a JSON-RPC error or an isError result stops the benchmark. */
export async function expectOk(server, method, params) {
  const response = await server.request(method, params);
  if (response.error || response.result?.isError) {
    throw new Error(`${method} failed: ${JSON.stringify(response).slice(0, 400)}`);
  }
  return response.result;
}

/** Resident and proportional set sizes (MiB) of one process, and its peak RSS. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (text, name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN);
  let pss = Number.NaN;
  try {
    pss = field(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
  } catch {
    // smaps_rollup needs Linux 4.14+
  }
  return { rss: field(status, 'VmRSS') / 1024, peak: field(status, 'VmHWM') / 1024, pss: pss / 1024 };
}

export function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  return { mean, p50: pick(0.5), p99: pick(0.99) };
}

/** Runs `fn` `count` times one after another and returns the elapsed times (ms). */
export async function sample(count, fn) {
  const samples = [];
  for (let i = 0; i < count; i += 1) {
    const start = now();
    await fn(i);
    samples.push(now() - start);
  }
  return samples;
}

/** Pages through a whole list method (200 per page); returns the number of items. */
export async function listAll(server, method, key) {
  let cursor;
  let total = 0;
  do {
    const result = await expectOk(server, method, cursor ? { cursor, limit: 200 } : { limit: 200 });
    total += result[key].length;
    cursor = result.nextCursor;
  } while (cursor);
  return total;
}
