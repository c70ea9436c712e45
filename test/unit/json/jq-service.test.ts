import { connect, type Socket } from 'node:net';
import t from 'tap';
import { encodeReply, RequestHeaderReader } from '../../../src/json/jq-service-protocol.js';
import { JqService } from '../../../src/json/jq-service-server.js';
import { type JqEngine, loadJqEngine, locateJqWasm } from '../../../src/json/jq-wasm.js';
import { repoRoot } from '../../helpers/paths.js';

const TOKEN = 'x'.repeat(48);
const files = locateJqWasm(repoRoot);
const skip = files ? false : 'jq-wasm is not installed';
let engine: Promise<JqEngine> | undefined;
const sharedEngine = () => {
  if (!files) throw new Error('no jq-wasm');
  engine ??= loadJqEngine(files, { oneShot: false });
  return engine;
};

const frame = (...fields: string[]) => Buffer.from(fields.map((field) => `${field}\0`).join(''));

/**
 * Sends bytes (in the given pieces) and collects everything until the server closes. Like
 * bash's /dev/tcp, a request connection never half-closes; an input connection (`end`) does.
 */
function exchange(
  port: number,
  pieces: Buffer[],
  onData?: (text: string, socket: Socket) => void,
  { end = false } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.on('connect', () => {
      for (const piece of pieces) socket.write(piece);
      if (end) socket.end();
    });
    socket.on('data', (chunk) => {
      received += chunk.toString();
      onData?.(received, socket);
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

async function withService(
  t: { teardown(fn: () => void): void },
  options: Partial<ConstructorParameters<typeof JqService>[0]> = {},
) {
  const service = new JqService({ token: TOKEN, engine: sharedEngine, ...options });
  const port = await service.listen();
  t.teardown(() => service.close());
  return port;
}

t.test('the header reader takes fields split across chunks and keeps what follows', async (t) => {
  const reader = new RequestHeaderReader(1024);
  const bytes = Buffer.concat([frame('MCPJQ1', 'tok', 'I', 'abc'), Buffer.from('{"stdin":1}')]);
  t.equal(reader.push(bytes.subarray(0, 5)), undefined);
  t.equal(reader.push(bytes.subarray(5, 14)), undefined);
  const done = reader.push(bytes.subarray(14));
  t.same(done?.request, { kind: 'input', token: 'tok', id: 'abc' });
  t.equal(done?.rest.toString(), '{"stdin":1}');

  const run = new RequestHeaderReader(1024).push(frame('MCPJQ1', 'tok', 'D', '/w', '2', '-c', '.', '{"a":1}'));
  t.same(run?.request, { kind: 'run', token: 'tok', cwd: '/w', argv: ['-c', '.'], data: '{"a":1}' });
  const noArgs = new RequestHeaderReader(1024).push(frame('MCPJQ1', 'tok', 'R', '/w', '0'));
  t.same(noArgs?.request, { kind: 'run', token: 'tok', cwd: '/w', argv: [], data: undefined });
});

t.test('the header reader refuses what is not a request', async (t) => {
  t.throws(() => new RequestHeaderReader(1024).push(frame('GET / HTTP/1.1')), { name: 'ProtocolError' });
  t.throws(() => new RequestHeaderReader(1024).push(frame('MCPJQ1', 'tok', 'Z')), { name: 'ProtocolError' });
  t.throws(() => new RequestHeaderReader(1024).push(frame('MCPJQ1', 'tok', 'R', '/', 'many')), {
    name: 'ProtocolError',
  });
  const small = new RequestHeaderReader(16);
  t.throws(() => small.push(Buffer.from('MCPJQ1\0tok\0R\0/a/long/path/without/an/end')), /too large/);
});

t.test('a reply says how the client reads it', async (t) => {
  t.equal(encodeReply({ stdout: '1\n', stderr: '', exitCode: 0 }).toString(), 'R 0 0 1 S\n1\n');
  t.equal(encodeReply({ stdout: '', stderr: 'a\nb', exitCode: 5 }).toString(), 'R 5 2 0 S\na\nb');
  t.match(encodeReply({ stdout: 'a\0b', stderr: '', exitCode: 0 }).toString(), /^R 0 0 1 L\n/, 'a NUL: cat');
  t.match(encodeReply({ stdout: 'x'.repeat(5000), stderr: '', exitCode: 0 }).toString(), /^R 0 0 1 L\n/, 'long: cat');
});

t.test('runs a request that carries its input, with jq status and stderr', { skip }, async (t) => {
  const port = await withService(t);
  const ok = await exchange(port, [frame('MCPJQ1', TOKEN, 'D', '/', '2', '-c', '.a', '{"a":[1,2]}')]);
  t.equal(ok, 'R 0 0 1 S\n[1,2]\n');
  const failed = await exchange(port, [frame('MCPJQ1', TOKEN, 'D', '/', '1', '.a', '[1]')]);
  t.match(failed, /^R 5 1 1 S\njq: error \(at <stdin>:0\): Cannot index array with string \("a"\)\n$/);
  const nullInput = await exchange(port, [frame('MCPJQ1', TOKEN, 'R', '/', '2', '-n', '1+1')]);
  t.equal(nullInput, 'R 0 0 1 S\n2\n', '-n: no stdin is asked for');
});

t.test('asks for stdin on a second connection when jq reads it', { skip }, async (t) => {
  const port = await withService(t);
  let asked = false;
  const reply = await exchange(port, [frame('MCPJQ1', TOKEN, 'R', '/', '1', 'length')], (text) => {
    const match = /^S (\w+)\n$/.exec(text);
    if (!match || asked) return;
    asked = true;
    const input = [frame('MCPJQ1', TOKEN, 'I', match[1] ?? ''), Buffer.from('[1,2,'), Buffer.from('3]')];
    void exchange(port, input, undefined, { end: true });
  });
  t.ok(asked);
  t.match(reply, /\nR 0 0 1 S\n3\n$/);
});

t.test('a wrong token, an unknown input id or a --help is never run', { skip }, async (t) => {
  const port = await withService(t);
  t.equal(await exchange(port, [frame('MCPJQ1', 'y'.repeat(48), 'D', '/', '1', '.', '1')]), '', 'dropped');
  t.equal(await exchange(port, [frame('MCPJQ1', TOKEN.slice(1), 'D', '/', '1', '.', '1')]), '', 'dropped');
  t.equal(await exchange(port, [frame('MCPJQ1', TOKEN, 'I', 'nope')], undefined, { end: true }), '', 'dropped');
  t.equal(await exchange(port, [frame('HTTP')]), '', 'dropped');
  t.equal(await exchange(port, [frame('MCPJQ1', TOKEN, 'R', '/', '1', '--help')]), 'F\n', 'left to mcp-bash jq');
});

t.test('stdin that never comes ends the run with status 2', { skip }, async (t) => {
  const port = await withService(t, { inputTimeoutMs: 50 });
  const reply = await exchange(port, [frame('MCPJQ1', TOKEN, 'R', '/', '1', '.')]);
  t.match(reply, /^S \w+\nR 2 1 1 S\njq: error: standard input did not arrive\n$/);
});

t.test('a connection that sends no header in time is dropped', async (t) => {
  const port = await withService(t, { headerTimeoutMs: 50 });
  t.equal(await exchange(port, [Buffer.from('MCPJQ1\0')]), '');
});
