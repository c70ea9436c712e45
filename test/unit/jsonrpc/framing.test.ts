import t from 'tap';
import { decodeFrame, recoverRequestId } from '../../../src/jsonrpc/frame-decoder.js';
import { LineSplitter, type SplitEvent } from '../../../src/jsonrpc/line-splitter.js';

const lines = (events: SplitEvent[]) =>
  events.map((e) => (e.kind === 'line' ? e.bytes.toString() : `<oversized ${e.size}>`));

t.test('lines split on \\n across chunk boundaries; the last unterminated line comes at end()', async (t) => {
  const splitter = new LineSplitter(1000);
  t.same(lines(splitter.push(Buffer.from('{"a":1}\n{"b"'))), ['{"a":1}']);
  t.same(lines(splitter.push(Buffer.from(':2}\n\n{"c":'))), ['{"b":2}', '']);
  t.same(lines(splitter.end()), ['{"c":']);
  t.same(splitter.end(), [], 'nothing left after end');
});

t.test('an oversized line is reported once with its start, and the next line is intact', async (t) => {
  const splitter = new LineSplitter(10);
  const events = [
    ...splitter.push(Buffer.from('{"id":7,"x":"')),
    ...splitter.push(Buffer.alloc(50, 'a')),
    ...splitter.push(Buffer.from('"}\n{"ok":1}\n')),
  ];
  t.equal(events.length, 2);
  const [big, next] = events;
  t.equal(big?.kind, 'oversized');
  if (big?.kind === 'oversized') {
    t.equal(big.size, 13 + 50 + 2);
    t.match(big.prefix.toString(), /^\{"id":7/);
  }
  t.same(next?.kind === 'line' ? next.bytes.toString() : '', '{"ok":1}');
});

t.test('decodeFrame strips BOM, CRLF and whitespace; blank lines are skipped', async (t) => {
  const frame = (text: string | Buffer) =>
    decodeFrame({ kind: 'line', bytes: Buffer.isBuffer(text) ? text : Buffer.from(text) }, 100);
  t.same(frame('\uFEFF{"a":1}\r'), { kind: 'value', value: { a: 1 } });
  t.same(frame(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('  [1]  ')])), {
    kind: 'value',
    value: [1],
  });
  t.equal(frame('   \r'), null);
});

t.test('invalid UTF-8 is decoded lossily (U+FFFD), as 1.x did through jq', async (t) => {
  const bad = decodeFrame(
    {
      kind: 'line',
      bytes: Buffer.concat([
        Buffer.from('{"id":5,"method":"x","params":{"s":"a'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('b"}}'),
      ]),
    },
    1000,
  );
  t.same(bad, { kind: 'value', value: { id: 5, method: 'x', params: { s: 'a\uFFFD\uFFFDb' } } });
});

t.test('invalid JSON is a parse error that keeps a recoverable id', async (t) => {
  const truncated = decodeFrame({ kind: 'line', bytes: Buffer.from('{"jsonrpc":"2.0","id":"abc","method":"x"') }, 1000);
  t.match(truncated, { kind: 'invalid', id: 'abc', error: { code: -32700 } });
  const noId = decodeFrame({ kind: 'line', bytes: Buffer.from('not json') }, 1000);
  t.match(noId, { kind: 'invalid', id: null });
});

t.test('id recovery only trusts an id that comes before params', async (t) => {
  t.equal(recoverRequestId('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{'), 12);
  t.equal(recoverRequestId('{"method":"x","params":{"id":99},"id":1'), null);
  t.equal(recoverRequestId('[{"id":1}'), null, 'batches are not guessed');
});

t.test('an oversized frame is an Invalid Request naming the limit', async (t) => {
  const frame = decodeFrame(
    { kind: 'oversized', prefix: Buffer.from('{"id":3,"method":"tools/call"'), size: 5000 },
    1024,
  );
  t.match(frame, {
    kind: 'invalid',
    id: 3,
    error: { code: -32600, message: /5000 bytes exceeds the limit of 1024 bytes/ },
  });
});
