import { PassThrough, Writable } from 'node:stream';
import t from 'tap';
import { JsonRpcEngine } from '../../../src/jsonrpc/engine.js';
import { StdioTransport } from '../../../src/jsonrpc/stdio-transport.js';

/** A stdout whose reader stalls until `readAll` is called, then reads everything. */
class StalledReader extends Writable {
  readonly lines: string[] = [];
  private held: Array<() => void> = [];
  private reading = false;

  constructor() {
    super({ highWaterMark: 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString().split('\n').filter(Boolean));
    if (this.reading) done();
    else this.held.push(done);
  }

  readAll(): void {
    this.reading = true;
    const held = this.held;
    this.held = [];
    for (const done of held) done();
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

t.test('while the peer does not read, no new heavy work starts and no input is read', async (t) => {
  const input = new PassThrough();
  const output = new StalledReader();
  const transport = new StdioTransport(input, output, 1_000_000);
  const engine = new JsonRpcEngine(transport, { maxConcurrent: 2, maxResponseBytes: 10_000_000, log: () => {} });
  let started = 0;
  engine.setRequestHandler(
    'big',
    async () => {
      started += 1;
      return { blob: 'x'.repeat(100_000) };
    },
    { queued: true },
  );
  engine.start();
  for (let id = 1; id <= 20; id += 1) input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'big' })}\n`);
  for (let i = 0; i < 20; i += 1) await tick();
  t.ok(started <= 3, `only the work running when the peer fell behind went on (${started} of 20 started)`);
  t.ok(input.isPaused() === false && input.readableLength === 0, 'a little input is read ahead, not parsed');

  output.readAll();
  while (output.lines.length < 20) {
    output.readAll();
    await tick();
  }
  t.equal(started, 20, 'the rest ran once the peer caught up');
  const ids = output.lines.map((line) => (JSON.parse(line) as { id: number }).id).sort((a, b) => a - b);
  t.same(
    ids,
    Array.from({ length: 20 }, (_, index) => index + 1),
    'every request answered once',
  );
  t.notOk(input.isPaused(), 'stdin flows again');
});

/** A transport whose peer has stalled after the first line it was sent. */
function stalledTransport(): { input: PassThrough; output: StalledReader; transport: StdioTransport } {
  const input = new PassThrough();
  const output = new StalledReader();
  const transport = new StdioTransport(input, output, 1_000_000);
  transport.start();
  transport.send('x'.repeat(4096));
  return { input, output, transport };
}

t.test('while the peer does not read, the end of input is still seen; what came before it is served', async (t) => {
  const { input, output, transport } = stalledTransport();
  const frames: unknown[] = [];
  transport.onframe = (frame) => frames.push(frame);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  await tick();
  t.equal(frames.length, 0, 'nothing is parsed while the peer is behind');
  input.end();
  await closed;
  t.equal(frames.length, 1, 'the line read ahead was parsed before the end was reported');
  t.equal(output.lines.length, 1);
});

t.test('what is read ahead while the peer is behind is bounded: past 1 MiB stdin pauses', async (t) => {
  const { input, output, transport } = stalledTransport();
  let frames = 0;
  transport.onframe = () => {
    frames += 1;
  };
  const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { pad: 'p'.repeat(64 * 1024) } })}\n`;
  for (let i = 0; i < 40; i += 1) input.write(line);
  await tick();
  t.ok(input.isPaused(), 'stdin paused');
  t.ok(input.readableLength + input.writableLength > 1024 * 1024, 'the rest stays in the pipe, not in the read-ahead');
  t.equal(frames, 0);
  output.readAll();
  while (frames < 40) await tick();
  t.notOk(input.isPaused(), 'stdin flows again once the peer caught up');
});
