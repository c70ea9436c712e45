import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { HostileLines, seededRandom } from '../../helpers/hostile-lines.js';
import { InProcessServer } from '../../helpers/in-process-server.js';
import { isolatedEnv } from '../../helpers/run-binary.js';

// MCPBASH_FUZZ_SEED=<n> replays a failing run; MCPBASH_FUZZ_LINES=<n> runs longer.
const SEED = Number(process.env.MCPBASH_FUZZ_SEED ?? 20_251_010);
const LINES = Number(process.env.MCPBASH_FUZZ_LINES ?? 5000);
const MAX_LINE_BYTES = 65_536;

/** The id (as JSON text) of every response in a stdout line: one, or one per element of a batch reply. */
const RESPONSE_ID = /\{"jsonrpc":"2\.0","id":(null|-?[0-9][0-9.eE+-]*|"(?:[^"\\]|\\.)*"),"(?:result|error)":/g;

/** Why a stdout line is not JSON-RPC 2.0 from a server, or undefined when it is. */
function protocolProblem(line: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  const messages = Array.isArray(value) ? value : [value];
  if (messages.length === 0) return 'an empty array';
  for (const message of messages as Array<Record<string, unknown>>) {
    if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0')
      return 'not a JSON-RPC 2.0 object';
    if (typeof message.method === 'string') {
      if (Array.isArray(value)) return 'a notification or request inside a batch reply';
      continue;
    }
    if (!('id' in message) || 'result' in message === 'error' in message)
      return 'a response needs an id and one of result or error';
    const error = message.error as { code?: unknown; message?: unknown } | undefined;
    if (error && (!Number.isInteger(error.code) || typeof error.message !== 'string'))
      return 'a malformed error object';
  }
  return undefined;
}

t.test(`${LINES} hostile lines (seed ${SEED}): no exit, only JSON-RPC out, each request answered once`, async (t) => {
  const server = new InProcessServer({
    projectRoot: fixtureProject('lifecycle'),
    env: isolatedEnv({ MCPBASH_MAX_MESSAGE_BYTES: String(MAX_LINE_BYTES), MCPBASH_LOG_LEVEL: 'error' }),
  });
  // 2025-03-26 accepts batches, so batch elements are dispatched, not only refused.
  await server.initialize('2025-03-26');
  const generator = new HostileLines(seededRandom(SEED), MAX_LINE_BYTES);
  const expected = new Map<string, number>();
  const kinds = new Map<string, number>();
  for (let i = 0; i < LINES; i += 1) {
    const line = generator.next();
    kinds.set(line.kind, (kinds.get(line.kind) ?? 0) + 1);
    for (const id of line.expect) expected.set(id, (expected.get(id) ?? 0) + 1);
    server.writeRaw(line.bytes, true);
  }
  const total = [...expected.values()].reduce((sum, count) => sum + count, 0);
  // Minus one: the initialize reply.
  const answered = () => server.lines.reduce((sum, line) => sum + [...line.matchAll(RESPONSE_ID)].length, 0) - 1;
  const deadline = Date.now() + 20_000;
  while (answered() < total && Date.now() < deadline && server.running) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(server.running, true, 'the server is still running');
  const final = await server.request('ping', undefined, 'after-the-fuzz');
  t.same(final.result, {}, 'and answers a ping');

  const seen = new Map<string, number>();
  for (const line of server.lines.slice(1)) {
    for (const match of line.matchAll(RESPONSE_ID))
      seen.set(match[1] as string, (seen.get(match[1] as string) ?? 0) + 1);
  }
  seen.delete('"after-the-fuzz"');
  const wrong = [...new Set([...expected.keys(), ...seen.keys()])].filter((id) => expected.get(id) !== seen.get(id));
  t.same(
    wrong
      .slice(0, 10)
      .map((id) => `${id}: expected ${expected.get(id) ?? 0}, got ${seen.get(id) ?? 0} (of ${wrong.length})`),
    [],
    `every request answered exactly once under its exact id (${total} replies expected; lines: ` +
      `${JSON.stringify(Object.fromEntries(kinds))})`,
  );
  const problems = server.lines
    .map((line) => [protocolProblem(line), line.slice(0, 200)])
    .filter(([problem]) => problem);
  t.same(problems.slice(0, 5), [], 'every stdout line is JSON-RPC 2.0');
  t.equal((await server.close()).code, 0, 'a normal exit at end of input');
  t.notMatch(
    server.stderr,
    /internal error|RangeError|Maximum call stack|\n\s+at /,
    'no crash or stack trace on stderr',
  );
});
