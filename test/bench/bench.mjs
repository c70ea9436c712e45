#!/usr/bin/env node
// Benchmarks the built server next to a reference server written with the official MCP
// TypeScript SDK (test/bench/reference-server.mjs) on the same generated project, and prints a
// Markdown report: every scenario as mcp-bash / reference, then mcp-bash's own measures
// (the SDK tool on each JSON tool and the SDK's load time, each against its floor; the 10,000-tool
// listing, per-call overhead over a bare bash spawn, throughput).
// Benchmarks are not tests: nothing here fails on a slow number, the targets are printed.
//
// Usage: node test/bench/bench.mjs [--bin dist/mcp-bash] [--tools 1000] [--big 10000] [--calls 400] [--rounds 5]
//        [--sdk-only]   (only the SDK table: a quick check while working on sdk-sh/)
//        [--also-jq PATH] (one more jq for the SDK table, e.g. a jq 1.7 the host does not have on PATH)
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, symlinkSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';
import { expectOk, listAll, memoryOf, now, sample, startServer, stats } from './bench-client.mjs';
import { makeProject, pathWithoutJq } from './bench-project.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = minimist(process.argv.slice(2), {
  string: ['bin', 'tools', 'big', 'calls', 'rounds', 'also-jq'],
  boolean: ['sdk-only'],
});
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

const ROUNDS = Number(args.rounds ?? 5);
const median = (values) => stats(values).p50;

/** Medians of paired samples, and the median of their per-round ratios. */
function pairedFrom(ours, theirs) {
  return { ours: median(ours), theirs: median(theirs), ratio: median(ours.map((a, i) => a / theirs[i])) };
}

/**
 * Runs `measureOnce(kind)` for mcp-bash and the reference in turn, ROUNDS times, and keeps
 * the medians and the median of the per-round ratios: pairing the two keeps a ratio
 * meaningful while other work on the machine speeds up or slows down both.
 */
async function paired(measureOnce) {
  const ours = [];
  const theirs = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    ours.push(await measureOnce('mcp-bash'));
    theirs.push(await measureOnce('reference'));
  }
  return pairedFrom(ours, theirs);
}

/** Time from spawn to initialized. */
async function startupTime(kind, project) {
  const start = now();
  const server = servers[kind](project);
  await server.ready;
  const elapsed = now() - start;
  await server.close();
  return elapsed;
}

/**
 * A freshly started server's first full tools list: how long the list took, and how long
 * from spawn to the list. `keepCache`: start with the `.registry/` an earlier run wrote
 * (mcp-bash reuses it when the files are unchanged; the reference keeps no cache).
 */
async function firstList(kind, project, { keepCache = false } = {}) {
  if (!keepCache) forgetCaches(project);
  const spawned = now();
  const server = await started(kind, project);
  const start = now();
  await listAll(server, 'tools/list', 'tools');
  const end = now();
  await server.close();
  return { list: end - start, spawnToList: end - spawned };
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

/** Every scenario, both servers in turn; p50 milliseconds unless named otherwise. */
async function measure(project) {
  const out = {
    startup: await paired((kind) => startupTime(kind, project)),
  };
  const spawnToList = { 'mcp-bash': [], reference: [] };
  out.coldList = await paired(async (kind) => {
    const first = await firstList(kind, project);
    spawnToList[kind].push(first.spawnToList);
    return first.list;
  });
  out.spawnToList = pairedFrom(spawnToList['mcp-bash'], spawnToList.reference);
  // The cold runs above left mcp-bash's cache in .registry/, as any earlier run would.
  out.restartList = await paired(async (kind) => (await firstList(kind, project, { keepCache: true })).list);
  const warm = {};
  for (const kind of Object.keys(servers)) {
    warm[kind] = await started(kind, project);
    await listAll(warm[kind], 'tools/list', 'tools');
  }
  const p50 = (count, request) => async (kind) => median(await sample(count, (i) => request(warm[kind], i)));
  out.warmList = await paired(p50(4, (server) => listAll(server, 'tools/list', 'tools')));
  out.ping = await paired(p50(200, (server) => server.request('ping')));
  // The direct start of the same script is measured in each round too, right after mcp-bash's
  // calls: the overhead is a difference of two times, which must come from the same moment.
  const script = join(project, 'tools', 'tool-0000', 'tool.sh');
  const direct = [];
  const callP50 = p50(40, (server, i) => expectOk(server, 'tools/call', { name: 'tool-0001', arguments: { n: i } }));
  out.call = await paired(async (kind) => {
    const value = await callP50(kind);
    if (kind === 'mcp-bash') direct.push(median(await sample(40, () => directSpawns(script, 1, 1))));
    return value;
  });
  out.direct1 = median(direct);
  out.hello = jsonToolBin
    ? await paired(p50(20, (server) => expectOk(server, 'tools/call', { name: 'hello', arguments: { name: 'x' } })))
    : { ours: Number.NaN, theirs: Number.NaN, ratio: Number.NaN };
  const greeting = (await expectOk(warm['mcp-bash'], 'resources/list', {})).resources.find(
    (r) => r.name === 'greeting',
  );
  out.read = await paired(p50(100, (server) => expectOk(server, 'resources/read', { uri: greeting.uri })));
  const promptArgs = { name: 'greet', arguments: { name: 'Ada', topic: 'engines' } };
  out.prompt = await paired(p50(100, (server) => expectOk(server, 'prompts/get', promptArgs)));
  out.idleRss = { ours: memoryOf(warm['mcp-bash'].pid).rss, theirs: memoryOf(warm.reference.pid).rss };
  out.idlePss = { ours: memoryOf(warm['mcp-bash'].pid).pss, theirs: memoryOf(warm.reference.pid).pss };
  for (const server of Object.values(warm)) await server.close();
  const busy = {};
  const direct16 = [];
  out.busy = await paired(async (kind) => {
    busy[kind] = await loaded(kind, project, 16, callCount);
    if (kind === 'mcp-bash') direct16.push(await directSpawns(script, 16, callCount));
    return busy[kind].perCall;
  });
  out.direct16 = median(direct16);
  out.peakRss = { ours: busy['mcp-bash'].memory.peak, theirs: busy.reference.memory.peak };
  return out;
}

const fmt = (value, unit = 'ms') =>
  Number.isNaN(value) ? 'n/a' : `${value.toFixed(value < 1 ? 3 : value < 10 ? 2 : 1)} ${unit}`;
const ratio = (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? 'n/a' : `${(a / b).toFixed(2)}×`);
const verdict = (value, limit) => (Number.isNaN(value) ? '' : value <= limit ? ' ✓' : ' ✗');

function comparisonRows(m) {
  const row = (label, { ours, theirs, ratio: r = ours / theirs }, unit, target) =>
    `| ${label} | ${fmt(ours, unit)} | ${fmt(theirs, unit)} | ` +
    `${ratio(r, 1)}${target ? verdict(r, target) : ''} | ${target ? `≤ ${target}×` : ''} |`;
  return [
    `| Scenario (medians of ${ROUNDS} paired rounds) | mcp-bash | reference | ratio | target |`,
    '|---|---|---|---|---|',
    row('start-up to initialized', m.startup),
    row('ping round trip', m.ping),
    row(`tools/list, all ${toolCount + 1} tools, cold (fresh server, no cache)`, m.coldList, 'ms', 1),
    row(`tools/list, all ${toolCount + 1} tools, restart (mcp-bash: cache in .registry/)`, m.restartList),
    row(`spawn to the full tools list, ${toolCount + 1} tools, no cache`, m.spawnToList),
    row(`tools/list, all ${toolCount + 1} tools, warm`, m.warmList),
    row('tools/call, `printf ok` tool', m.call),
    row('tools/call, SDK tool (mcp_args_get + mcp_result_success, gojq)', m.hello),
    row('resources/read, small file', m.read, 'ms', 1.5),
    row('prompts/get', m.prompt),
    row(`tools/call, 16 in flight (${callCount} calls), time per call`, m.busy),
    row('RSS idle', m.idleRss, 'MiB'),
    row('PSS idle', m.idlePss, 'MiB'),
    row('peak RSS after 16 in flight', m.peakRss, 'MiB'),
  ];
}

/** Milliseconds per start of `script` with `inFlight` starts outstanding (no server). */
async function directSpawns(script, inFlight, count) {
  let started = 0;
  const begin = now();
  const worker = async () => {
    while (started < count) {
      started += 1;
      // As both servers start a plain-bash tool: `bash tool.sh`, not through its shebang.
      await new Promise((resolve) => spawn('bash', [script], { stdio: 'ignore' }).on('close', resolve));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (now() - begin) / count;
}

/** Milliseconds per run of `bash -c SCRIPT`, p50 of `count` runs one at a time (no server). */
async function bashRuns(script, count) {
  return median(
    await sample(
      count,
      () => new Promise((resolve) => spawn('bash', ['-c', script], { stdio: 'ignore' }).on('close', resolve)),
    ),
  );
}

/**
 * The SDK hello tool on each JSON tool the host may have, and loading the SDK, each against
 * its floor in the same rounds: the `printf ok` call on the same server, `bash -c true`.
 */
async function sdkRows(project) {
  const noJqPath = pathWithoutJq(process.env.PATH ?? '/usr/bin:/bin');
  const version = (bin) => spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const hostJq = findProgram('jq');
  const alsoJq = args['also-jq'] ? resolve(args['also-jq']) : '';
  // The extra jq as the only `jq` on PATH, whatever its file is called (MCPBASH_JSON_TOOL_BIN
  // is not honoured for root).
  const alsoJqPath = alsoJq ? pathWithoutJq(process.env.PATH ?? '/usr/bin:/bin') : '';
  if (alsoJq) symlinkSync(alsoJq, join(alsoJqPath, 'jq'));
  const setups = [
    ['gojq', findProgram('gojq') ? { MCPBASH_JSON_TOOL: 'gojq' } : undefined],
    [`the host's jq (${hostJq ? version(hostJq) : ''})`, hostJq ? { MCPBASH_JSON_TOOL: 'jq' } : undefined],
    [
      `jq ${alsoJq ? version(alsoJq) : ''} (--also-jq)`,
      alsoJq ? { MCPBASH_JSON_TOOL: 'jq', PATH: alsoJqPath } : undefined,
    ],
    ['no jq at all (the warm built-in jq)', { PATH: noJqPath }],
  ].filter(([, env]) => env !== undefined);
  const rows = [
    `| SDK measure (medians of ${ROUNDS} rounds) | time | floor (same rounds) | ratio | target |`,
    '|---|---|---|---|---|',
  ];
  const helperRows = [];
  try {
    for (const [label, env] of setups) {
      const server = await started('mcp-bash', project, env);
      const call = (name) => async () =>
        median(await sample(20, () => expectOk(server, 'tools/call', { name, arguments: { name: 'x' } })));
      await call('hello')();
      const runs = { hello: [], floor: [], ratios: [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        const hello = await call('hello')();
        const floor = await call('tool-0001')();
        runs.hello.push(hello);
        runs.floor.push(floor);
        runs.ratios.push(hello / floor);
      }
      const helper = await expectOk(server, 'tools/call', { name: 'json-helper', arguments: { list: [1, 2, 3] } });
      const [perHelper = Number.NaN, perSubshell = Number.NaN] = String(helper.content?.[0]?.text ?? '')
        .split(' ')
        .map((us) => Number(us) / 1000);
      await server.close();
      const r = median(runs.ratios);
      rows.push(
        `| tools/call, SDK hello, ${label} (floor: the \`printf ok\` call) | ${fmt(median(runs.hello))} | ` +
          `${fmt(median(runs.floor))} | ${ratio(r, 1)}${verdict(r, 1.6)} | ≤ 1.6× |`,
      );
      helperRows.push(`| ${label} | ${fmt(perHelper)} | ${fmt(perSubshell)} | ${fmt(perHelper - perSubshell)} |`);
    }
  } finally {
    for (const dir of [noJqPath, alsoJqPath]) if (dir) rmSync(dir, { recursive: true, force: true });
  }
  const load = { sdk: [], floor: [], ratios: [] };
  const sourceSdk = `source ${JSON.stringify(join(root, 'sdk-sh', 'tool-sdk.sh'))}`;
  for (let round = 0; round < ROUNDS; round += 1) {
    const sdk = await bashRuns(sourceSdk, 40);
    const floor = await bashRuns('true', 40);
    load.sdk.push(sdk);
    load.floor.push(floor);
    load.ratios.push(sdk / floor);
  }
  const r = median(load.ratios);
  rows.push(
    `| \`bash -c 'source tool-sdk.sh'\` (floor: \`bash -c true\`) | ${fmt(median(load.sdk))} | ` +
      `${fmt(median(load.floor))} | ${ratio(r, 1)}${verdict(r, 1.5)} | ≤ 1.5× |`,
  );
  return [
    ...rows,
    '',
    'One SDK helper that needs the JSON tool (`x="$(mcp_args_get \'.list | length\')"`), timed inside a tool',
    '(medians of 5 runs of 20), against the subshell alone (`x="$(printf x)"`):',
    '',
    "| JSON tool | per helper call | the subshell alone | the JSON tool's share |",
    '|---|---|---|---|',
    ...helperRows,
  ];
}

/** mcp-bash alone: a big project, overhead and throughput. */
async function ownRows(project, m) {
  const rows = ['| Measure | Result | target |', '|---|---|---|'];
  const big = makeProject(bigCount);
  try {
    const cold = median([
      (await firstList('mcp-bash', big)).list,
      (await firstList('mcp-bash', big)).list,
      (await firstList('mcp-bash', big)).list,
    ]);
    rows.push(
      `| tools/list, all ${bigCount + 1} tools, cold (median of 3) | ${fmt(cold)}${verdict(cold, 2000)} | < 2 s |`,
    );
  } finally {
    rmSync(dirname(big), { recursive: true, force: true });
  }
  const { direct1, direct16 } = m;
  rows.push(`| \`bash tool.sh\` (the \`printf ok\` tool) started directly, one at a time, p50 | ${fmt(direct1)} | |`);
  rows.push(
    `| server overhead per tools/call, 1 in flight (call p50 - direct start p50) | ${fmt(m.call.ours - direct1)} | |`,
  );
  rows.push(
    `| server overhead per tools/call, 16 in flight (time per call - direct starts' time per start) | ` +
      `${fmt(m.busy.ours - direct16)} (reference: ${fmt(m.busy.theirs - direct16)}) | |`,
  );
  for (const inFlight of [1, 16, 64]) {
    const result = await loaded('mcp-bash', project, inFlight, callCount);
    rows.push(`| tools/call throughput, ${inFlight} in flight | ${result.perSecond.toFixed(0)} calls/s | |`);
  }
  return rows;
}

async function main() {
  const project = makeProject(args['sdk-only'] ? 2 : toolCount);
  try {
    if (args['sdk-only']) {
      process.stdout.write(`${(await sdkRows(project)).join('\n')}\n`);
      return;
    }
    const measured = await measure(project);
    const lines = [
      `## Benchmark (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ` +
        `${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version})`,
      '',
      `mcp-bash: \`${binary}\`. Reference: \`test/bench/reference-server.mjs\` (official TypeScript SDK, same ` +
        `project, same bash tools; JSON tool ${jsonToolBin || 'none'}). Ratios are mcp-bash / reference (the ` +
        `median of paired rounds): below 1× mcp-bash is faster or smaller.`,
      '',
      ...comparisonRows(measured),
      '',
      ...(await sdkRows(project)),
      '',
      ...(await ownRows(project, measured)),
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
