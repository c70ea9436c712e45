#!/usr/bin/env node
// Benchmarks the built server next to a reference server written with the official MCP
// TypeScript SDK (test/bench/reference-server.mjs) on the same generated project, and prints a
// Markdown report: every scenario as mcp-bash / reference, then mcp-bash's own measures
// (no-jq tools, 10,000-tool listing, per-call overhead over a bare bash spawn, throughput).
// Benchmarks are not tests: nothing here fails on a slow number, the targets are printed.
//
// Usage: node test/bench/bench.mjs [--bin dist/mcp-bash] [--tools 1000] [--big 10000] [--calls 400]
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';
import { expectOk, listAll, memoryOf, now, sample, startServer, stats } from './bench-client.mjs';
import { makeProject, pathWithoutJq } from './bench-project.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = minimist(process.argv.slice(2), { string: ['bin', 'tools', 'big', 'calls'] });
const binary = args.bin ?? join(root, 'dist', 'mcp-bash');
const toolCount = Number(args.tools ?? 1000);
const bigCount = Number(args.big ?? 10000);
const callCount = Number(args.calls ?? 400);
const findProgram = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
const jsonToolBin = findProgram('gojq') || findProgram('jq');

/** How to start each server on a project; `extraEnv` adds or overrides variables. */
const servers = {
  'mcp-bash': (project, extraEnv = {}, options) =>
    startServer(
      binary,
      [],
      {
        ...process.env,
        MCPBASH_PROJECT_ROOT: project,
        MCPBASH_TOOL_ALLOWLIST: '*',
        MCPBASH_LOG_LEVEL: 'error',
        MCPBASH_MAX_CONCURRENT_REQUESTS: '64',
        ...extraEnv,
      },
      options,
    ),
  reference: (project, extraEnv = {}, options) =>
    startServer(
      process.execPath,
      [join(root, 'test', 'bench', 'reference-server.mjs'), project],
      { ...process.env, MCP_SDK: join(root, 'sdk-sh'), MCPBASH_JSON_TOOL_BIN: jsonToolBin, ...extraEnv },
      options,
    ),
};

const forgetCaches = (project) => rmSync(join(project, '.registry'), { recursive: true, force: true });

async function started(kind, project, extraEnv) {
  const server = servers[kind](project, extraEnv);
  await server.ready;
  return server;
}

/** Median time from spawn to initialized, over fresh starts. */
async function startupTime(kind, project) {
  const times = await sample(5, async () => {
    const server = servers[kind](project);
    await server.ready;
    await server.close();
  });
  return stats(times).p50;
}

/** Median time to list every tool from a freshly started server with no cache on disk. */
async function coldListTime(kind, project) {
  const times = [];
  for (let i = 0; i < 3; i += 1) {
    forgetCaches(project);
    const server = await started(kind, project);
    const start = now();
    await listAll(server, 'tools/list', 'tools');
    times.push(now() - start);
    await server.close();
  }
  return stats(times).p50;
}

/** Milliseconds per call with `inFlight` calls outstanding, and the server's peak RSS. */
async function loaded(kind, project, inFlight, calls) {
  const server = await started(kind, project);
  await expectOk(server, 'tools/call', { name: 'tool-0000', arguments: {} });
  let issued = 0;
  const begin = now();
  const worker = async () => {
    while (issued < calls) {
      issued += 1;
      await expectOk(server, 'tools/call', { name: `tool-${String(issued % toolCount).padStart(4, '0')}` });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const perCall = (now() - begin) / calls;
  const memory = memoryOf(server.pid);
  await server.close();
  return { perCall, perSecond: 1000 / perCall, memory };
}

/** Every per-request scenario for one server kind; p50 milliseconds unless named otherwise. */
async function measure(kind, project) {
  const out = { startup: await startupTime(kind, project), coldList: await coldListTime(kind, project) };
  const server = await started(kind, project);
  await listAll(server, 'tools/list', 'tools');
  out.warmList = stats(await sample(20, () => listAll(server, 'tools/list', 'tools'))).p50;
  out.ping = stats(await sample(1000, () => server.request('ping'))).p50;
  out.call = stats(
    await sample(200, (i) => expectOk(server, 'tools/call', { name: 'tool-0001', arguments: { n: i } })),
  ).p50;
  out.hello = jsonToolBin
    ? stats(await sample(100, () => expectOk(server, 'tools/call', { name: 'hello', arguments: { name: 'x' } }))).p50
    : Number.NaN;
  const greeting = (await expectOk(server, 'resources/list', {})).resources.find((r) => r.name === 'greeting');
  out.read = stats(await sample(300, () => expectOk(server, 'resources/read', { uri: greeting.uri }))).p50;
  const promptArgs = { name: 'greet', arguments: { name: 'Ada', topic: 'engines' } };
  out.prompt = stats(await sample(300, () => expectOk(server, 'prompts/get', promptArgs))).p50;
  out.idle = memoryOf(server.pid);
  await server.close();
  out.busy = await loaded(kind, project, 16, callCount);
  return out;
}

const fmt = (value, unit = 'ms') =>
  Number.isNaN(value) ? 'n/a' : `${value.toFixed(value < 1 ? 3 : value < 10 ? 2 : 1)} ${unit}`;
const ratio = (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? 'n/a' : `${(a / b).toFixed(2)}×`);
const verdict = (value, limit) => (Number.isNaN(value) ? '' : value <= limit ? ' ✓' : ' ✗');

function comparisonRows(ours, theirs) {
  const row = (label, a, b, unit, target) =>
    `| ${label} | ${fmt(a, unit)} | ${fmt(b, unit)} | ${ratio(a, b)}${target ? verdict(a / b, target) : ''} | ${target ? `≤ ${target}×` : ''} |`;
  return [
    '| Scenario (p50 unless named) | mcp-bash | reference | ratio | target |',
    '|---|---|---|---|---|',
    row('start-up to initialized (median of 5)', ours.startup, theirs.startup),
    row('ping round trip', ours.ping, theirs.ping),
    row(`tools/list, all ${toolCount + 1} tools, cold (median of 3)`, ours.coldList, theirs.coldList, 'ms', 1),
    row(`tools/list, all ${toolCount + 1} tools, warm`, ours.warmList, theirs.warmList),
    row('tools/call, `printf ok` tool', ours.call, theirs.call),
    row('tools/call, SDK tool (mcp_args_get + mcp_result_success, gojq)', ours.hello, theirs.hello),
    row('resources/read, small file', ours.read, theirs.read, 'ms', 1.5),
    row('prompts/get', ours.prompt, theirs.prompt),
    row(`tools/call, 16 in flight (${callCount} calls), time per call`, ours.busy.perCall, theirs.busy.perCall),
    row('RSS idle', ours.idle.rss, theirs.idle.rss, 'MiB'),
    row('PSS idle', ours.idle.pss, theirs.idle.pss, 'MiB'),
    row('peak RSS after 16 in flight', ours.busy.memory.peak, theirs.busy.memory.peak, 'MiB'),
  ];
}

/** mcp-bash alone: the SDK tool without jq, a big project, overhead and throughput. */
async function ownRows(project, ours) {
  const noJqPath = pathWithoutJq(process.env.PATH ?? '/usr/bin:/bin');
  const rows = ['| Measure | Result | target |', '|---|---|---|'];
  try {
    const server = await started('mcp-bash', project, { PATH: noJqPath });
    await expectOk(server, 'tools/call', { name: 'hello', arguments: { name: 'x' } });
    const noJq = stats(await sample(50, () => expectOk(server, 'tools/call', { name: 'hello', arguments: {} }))).p50;
    await server.close();
    rows.push(
      `| SDK tool with no jq/gojq on PATH (built-in jq), p50 | ${fmt(noJq)} = ${ratio(noJq, ours.hello)} of the gojq run${verdict(noJq / ours.hello, 2)} | ≤ 2× |`,
    );
  } finally {
    rmSync(noJqPath, { recursive: true, force: true });
  }
  const big = makeProject(bigCount);
  try {
    const cold = await coldListTime('mcp-bash', big);
    rows.push(
      `| tools/list, all ${bigCount + 1} tools, cold (median of 3) | ${fmt(cold)}${verdict(cold, 2000)} | < 2 s |`,
    );
  } finally {
    rmSync(dirname(big), { recursive: true, force: true });
  }
  const script = join(project, 'tools', 'tool-0000', 'tool.sh');
  const bash = stats(await sample(200, () => spawnSync(script, [], { stdio: 'ignore' }))).p50;
  rows.push(`| the \`printf ok\` script started directly (bash spawn), p50 | ${fmt(bash)} | |`);
  rows.push(`| server overhead per tools/call (call p50 - spawn p50) | ${fmt(ours.call - bash)} | |`);
  for (const inFlight of [1, 16, 64]) {
    const result = await loaded('mcp-bash', project, inFlight, callCount);
    rows.push(`| tools/call throughput, ${inFlight} in flight | ${result.perSecond.toFixed(0)} calls/s | |`);
  }
  return rows;
}

async function main() {
  const project = makeProject(toolCount);
  try {
    const ours = await measure('mcp-bash', project);
    const theirs = await measure('reference', project);
    const lines = [
      `## Benchmark (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version})`,
      '',
      `mcp-bash: \`${binary}\`. Reference: \`test/bench/reference-server.mjs\` (official TypeScript SDK, same project, same bash tools; JSON tool ${jsonToolBin || 'none'}). Ratios are mcp-bash / reference: below 1× mcp-bash is faster or smaller.`,
      '',
      ...comparisonRows(ours, theirs),
      '',
      ...(await ownRows(project, ours)),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(dirname(project), { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
