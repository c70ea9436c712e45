#!/usr/bin/env node
// The stress lane of the benchmark: many tool calls at 1, 16, 64 and 256 in flight, over stdio
// and over `serve --http`, every answer checked byte for byte against what the tool printed.
// Prints, per transport and level, how many answers were right, lost (no answer, or a result
// without the tool's output), wrong (another output, an error) or duplicated. Not timed in CI:
// `npm run bench:stress`. Exits 1 when any answer was not right.
//
// Usage: node test/bench/stress.mjs [--bin dist/mcp-bash] [--calls 2000] [--levels 1,16,64,256]
//                                   [--transports stdio,http]
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';
import { now, startServer } from './bench-client.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = minimist(process.argv.slice(2), { string: ['bin', 'calls', 'levels', 'transports', 'pad'] });
const binary = args.bin ?? join(root, 'dist', 'mcp-bash');
const callCount = Number(args.calls ?? 2000);
const levels = String(args.levels ?? '1,16,64,256')
  .split(',')
  .map(Number);
const transports = String(args.transports ?? 'stdio,http').split(',');
// Every tenth call also carries this many bytes of arguments (default 1 MiB): parsing,
// validating and handing them to the tool keeps the server's event loop busy, the lag a
// loaded server sees, while the other calls' tools exit.
const padBytes = Number(args.pad ?? 1024 * 1024);

// The tool prints a line naming its call, then `size` bytes that depend on the call too: an
// answer with another call's output, a cut one or an empty one is told apart from the right one.
const ECHO_TOOL = `#!/usr/bin/env bash
# Large arguments come in a file; the call and size lead them.
args="\${MCP_TOOL_ARGS_JSON:-$(head -c 200 "\${MCP_TOOL_ARGS_FILE}")}"
call="\${args#*\\"call\\":\\"}"; call="\${call%%\\"*}"
size="\${args#*\\"size\\":}"; size="\${size%%[,\\}]*}"
printf 'call %s\\n' "$call"
if [ "$size" -gt 0 ]; then head -c "$size" /dev/zero | tr '\\0' "\${call: -1}"; fi
`;

/** What the tool prints for a call. */
const expected = (call, size) => `call ${call}\n${call.slice(-1).repeat(size)}`;

function makeProject() {
  const project = join(mkdtempSync(join(tmpdir(), 'mcpbash-stress-')), 'project');
  const dir = join(project, 'tools', 'echo-call');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tool.sh'), ECHO_TOOL);
  chmodSync(join(dir, 'tool.sh'), 0o755);
  writeFileSync(
    join(dir, 'tool.meta.json'),
    JSON.stringify({ name: 'echo-call', description: 'Prints its call', inputSchema: { type: 'object' } }),
  );
  return project;
}

const serverEnv = (project) => ({
  ...process.env,
  MCPBASH_PROJECT_ROOT: project,
  MCPBASH_TOOL_ALLOWLIST: '*',
  MCPBASH_LOG_LEVEL: 'error',
  MCPBASH_MAX_CONCURRENT_REQUESTS: '256',
  MCPBASH_DEFAULT_TOOL_TIMEOUT: '120',
});

/** Every tenth call prints 100 KiB (more than a pipe holds), the others one short line. */
const sizeOf = (index) => (index % 10 === 9 ? 100 * 1024 : 0);
const padding = 'p'.repeat(padBytes);
/** The arguments of a call: its name, the size it prints, and now and then the padding. */
const argumentsOf = (index, call, size) => (index % 10 === 4 ? { call, size, pad: padding } : { call, size });

/** Sorts one call's answers into right / lost / wrong / duplicate. */
function judge(counts, call, size, answers) {
  if (answers.length === 0) return void (counts.lost += 1);
  if (answers.length > 1) counts.duplicate += 1;
  const text = answers[0].result?.content?.[0]?.text;
  if (answers[0].result && !answers[0].result.isError && text === expected(call, size)) counts.right += 1;
  else if (answers[0].result && !answers[0].result.isError && (text === '' || text === undefined)) counts.lost += 1;
  else {
    counts.wrong += 1;
    if (counts.wrong <= 3) console.error(`wrong answer for ${call}: ${JSON.stringify(answers[0]).slice(0, 300)}`);
  }
}

/** Runs `count` calls through `callOnce`, `inFlight` at a time. */
async function drive(inFlight, count, callOnce) {
  const counts = { right: 0, lost: 0, wrong: 0, duplicate: 0 };
  let next = 0;
  const started = now();
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const call = `c${index}x${String.fromCharCode(97 + (index % 26))}`;
      const size = sizeOf(index);
      judge(counts, call, size, await callOnce(argumentsOf(index, call, size)));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { ...counts, seconds: (now() - started) / 1000 };
}

/** A raw stdio client that keeps every message, so duplicates and stray ids are seen. */
async function overStdio(project, inFlight) {
  const server = startServer(binary, [], serverEnv(project));
  await server.ready;
  const callOnce = async (callArgs) => [await server.request('tools/call', { name: 'echo-call', arguments: callArgs })];
  const counts = await drive(inFlight, callCount, callOnce);
  // An id answered twice (or never sent) shows up as a stray of the client.
  counts.duplicate += server.strays();
  await server.close();
  return counts;
}

function startHttp(project) {
  const child = spawn(binary, ['serve', '--http', '127.0.0.1:0'], {
    env: serverEnv(project),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`serve --http exited (${code}): ${stderr}`)));
  });
}

/** The JSON-RPC messages of one POST's answer (JSON, or an event stream). */
async function messagesOf(response) {
  const body = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return body.trim() === '' ? [] : [JSON.parse(body)].flat();
  }
  return body
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

async function overHttp(project, inFlight) {
  const { child, url } = await startHttp(project);
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (message, extra = {}) =>
    fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(message) });
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stress', version: '1' } },
  });
  const session = init.headers.get('mcp-session-id');
  const sessionHeaders = { ...(session ? { 'mcp-session-id': session } : {}), 'mcp-protocol-version': '2025-11-25' };
  await messagesOf(init);
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders)).text();
  let id = 0;
  const callOnce = async (callArgs) => {
    id += 1;
    const own = id;
    const response = await post(
      { jsonrpc: '2.0', id: own, method: 'tools/call', params: { name: 'echo-call', arguments: callArgs } },
      sessionHeaders,
    );
    return (await messagesOf(response)).filter((message) => message.id === own && message.method === undefined);
  };
  try {
    return await drive(inFlight, callCount, callOnce);
  } finally {
    child.kill('SIGTERM');
  }
}

async function main() {
  const project = makeProject();
  let bad = 0;
  console.log(`| transport | in flight | calls | right | lost | wrong | duplicate | calls/s |`);
  console.log('|---|---|---|---|---|---|---|---|');
  try {
    for (const transport of transports) {
      for (const inFlight of levels) {
        const run = transport === 'http' ? overHttp : overStdio;
        const c = await run(project, inFlight);
        bad += c.lost + c.wrong + c.duplicate;
        const rate = (callCount / c.seconds).toFixed(0);
        console.log(`| ${[transport, inFlight, callCount, c.right, c.lost, c.wrong, c.duplicate, rate].join(' | ')} |`);
      }
    }
  } finally {
    rmSync(dirname(project), { recursive: true, force: true });
  }
  process.exitCode = bad === 0 ? 0 : 1;
}

await main();
