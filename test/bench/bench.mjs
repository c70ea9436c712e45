#!/usr/bin/env node
// Benchmarks the built server: protocol overhead (ping), tools/list over 1,000 tools (cold,
// warm, restart), tools/call latency, and throughput at 1/16/64 calls in flight, next to
// the cost of starting the same bash script directly. Prints a Markdown report.
//
// Usage: node test/bench/bench.mjs [--bin dist/mcp-bash] [--tools 1000] [--calls 400]
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = minimist(process.argv.slice(2), { string: ['bin', 'tools', 'calls'] });
const binary = args.bin ?? join(root, 'dist', 'mcp-bash');
const toolCount = Number(args.tools ?? 1000);
const callCount = Number(args.calls ?? 400);

function makeProject(count) {
  const project = join(mkdtempSync(join(tmpdir(), 'mcpbash-bench-')), 'project');
  mkdirSync(join(project, 'server.d'), { recursive: true });
  writeFileSync(join(project, 'server.d', 'server.meta.json'), '{"name":"bench"}');
  for (let i = 0; i < count; i += 1) {
    const name = `tool-${String(i).padStart(4, '0')}`;
    const dir = join(project, 'tools', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tool.sh'), '#!/usr/bin/env bash\nprintf ok\n');
    chmodSync(join(dir, 'tool.sh'), 0o755);
    writeFileSync(
      join(dir, 'tool.meta.json'),
      JSON.stringify({
        name,
        description: `Benchmark tool ${i}`,
        inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      }),
    );
  }
  return project;
}

/** A minimal newline-delimited JSON-RPC client for the binary. */
function startServer(project, env = {}) {
  const child = spawn(binary, [], {
    env: {
      ...process.env,
      MCPBASH_PROJECT_ROOT: project,
      MCPBASH_TOOL_ALLOWLIST: '*',
      MCPBASH_LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const pending = new Map();
  let buffer = '';
  let nextId = 1;
  child.stdout.on('data', (chunk) => {
    buffer += chunk.toString();
    let newline;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const message = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      const resolve = pending.get(message.id);
      if (resolve && message.method === undefined) {
        pending.delete(message.id);
        resolve(message);
      }
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const close = () =>
    new Promise((resolve) => {
      child.on('close', resolve);
      child.stdin.end();
    });
  return {
    request,
    close,
    ready: (async () => {
      await request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      });
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    })(),
  };
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  return { mean, p50: pick(0.5), p99: pick(0.99) };
}

const ms = (value) => `${value.toFixed(value < 1 ? 3 : value < 10 ? 2 : 1)} ms`;

async function listAll(server) {
  let cursor;
  let total = 0;
  do {
    const response = await server.request('tools/list', cursor ? { cursor, limit: 200 } : { limit: 200 });
    total += response.result.tools.length;
    cursor = response.result.nextCursor;
  } while (cursor);
  return total;
}

async function timed(fn) {
  const start = now();
  const value = await fn();
  return { elapsed: now() - start, value };
}

async function throughput(project, inFlight, calls) {
  const server = startServer(project, { MCPBASH_MAX_CONCURRENT_REQUESTS: String(Math.max(16, inFlight)) });
  await server.ready;
  await server.request('tools/call', { name: 'tool-0000', arguments: {} });
  let started = 0;
  const latencies = [];
  const begin = now();
  const worker = async () => {
    while (started < calls) {
      started += 1;
      const t0 = now();
      const response = await server.request('tools/call', {
        name: `tool-${String(started % toolCount).padStart(4, '0')}`,
        arguments: { n: 1 },
      });
      if (response.error || response.result.isError) throw new Error(JSON.stringify(response));
      latencies.push(now() - t0);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = now() - begin;
  await server.close();
  return { perSecond: (calls / elapsed) * 1000, latency: stats(latencies) };
}

function bashBaseline(project, runs) {
  const script = join(project, 'tools', 'tool-0000', 'tool.sh');
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = now();
    spawnSync(script, [], { stdio: 'ignore' });
    samples.push(now() - t0);
  }
  return stats(samples);
}

async function main() {
  const project = makeProject(toolCount);
  const lines = [];
  const out = (line = '') => lines.push(line);
  try {
    const startup = await timed(async () => {
      const s = startServer(project);
      await s.ready;
      return s;
    });
    const server = startup.value;
    const cold = await timed(() => listAll(server));
    const warmSamples = [];
    for (let i = 0; i < 20; i += 1) warmSamples.push((await timed(() => listAll(server))).elapsed);
    const pings = [];
    for (let i = 0; i < 2000; i += 1) pings.push((await timed(() => server.request('ping'))).elapsed);
    const calls = [];
    for (let i = 0; i < 200; i += 1)
      calls.push((await timed(() => server.request('tools/call', { name: 'tool-0001', arguments: { n: i } }))).elapsed);
    await server.close();
    const restarted = startServer(project);
    await restarted.ready;
    const restart = await timed(() => listAll(restarted));
    await restarted.close();

    const bash = bashBaseline(project, 200);
    const pingStats = stats(pings);
    const callStats = stats(calls);
    out(
      `## Benchmark (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version})`,
    );
    out();
    out(`Binary: \`${binary}\`; project: ${toolCount} tools (\`printf ok\` scripts with metadata).`);
    out();
    out('| Measure | Result |');
    out('|---|---|');
    out(`| Start-up to initialized | ${ms(startup.elapsed)} |`);
    out(
      `| ping round trip (server overhead), mean / p50 / p99 | ${ms(pingStats.mean)} / ${ms(pingStats.p50)} / ${ms(pingStats.p99)} |`,
    );
    out(`| tools/list, all ${toolCount} tools (5 pages), first call: cold scan | ${ms(cold.elapsed)} |`);
    out(`| tools/list, all ${toolCount} tools, warm (cached), median | ${ms(stats(warmSamples).p50)} |`);
    out(`| tools/list after a restart (cache reused by fingerprint) | ${ms(restart.elapsed)} |`);
    out(
      `| tools/call, one at a time, mean / p50 / p99 | ${ms(callStats.mean)} / ${ms(callStats.p50)} / ${ms(callStats.p99)} |`,
    );
    out(`| the same script started directly (bash spawn baseline), mean / p50 | ${ms(bash.mean)} / ${ms(bash.p50)} |`);
    out(`| server overhead per tools/call (call p50 - spawn p50) | ${ms(callStats.p50 - bash.p50)} |`);
    for (const inFlight of [1, 16, 64]) {
      const result = await throughput(project, inFlight, callCount);
      out(
        `| tools/call throughput, ${inFlight} in flight (${callCount} calls) | ${result.perSecond.toFixed(0)} calls/s, p50 ${ms(result.latency.p50)}, p99 ${ms(result.latency.p99)} |`,
      );
    }
  } finally {
    rmSync(dirname(project), { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
