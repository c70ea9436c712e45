import t from 'tap';
import { RawNumber } from '../../../src/json/raw-number.js';
import { decodeFrame, LineSplitter, recoverRequestId, type SplitEvent } from '../../../src/jsonrpc/framing.js';
import {
  MAX_NESTING_DEPTH,
  OverNestedMessage,
  type RequestId,
  requestKey,
  serializeId,
} from '../../../src/jsonrpc/messages.js';

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

t.test('id recovery only trusts a top-level id: nested members are skipped (D38)', async (t) => {
  t.equal(recoverRequestId('{"jsonrpc":"2.0","x":{"id":77},"id":6,,}'), 6);
  t.equal(recoverRequestId('{"jsonrpc":"2.0","_meta":{"id":"other"},"id":6,"method":"ping",,}'), 6);
  t.equal(recoverRequestId('{"a":[{"id":1},["id",2]],"b":"\\"id\\":3","id":"k",'), 'k', 'arrays and strings too');
  t.equal(recoverRequestId('{"x":{"id":77}'), null, 'only a nested id: none');
  t.equal(recoverRequestId('{"x":{"id":77,"y":{'), null, 'an unclosed nested object hides its ids');
  t.equal(recoverRequestId('{"msg":"id","id":4}x'), 4, 'a string value "id" is not a key');
  t.equal(recoverRequestId('{"id":{"id":5}}x'), null, 'an id that is no id');
  t.equal(recoverRequestId('{"id":true'), null);
  t.equal(recoverRequestId('{"id":-35,'), -35);
  t.equal(recoverRequestId('{ "id" : "a\\u0041" ,'), 'aA', 'escapes decoded');
  t.equal(recoverRequestId('{"i\\d":9,'), null, 'a broken escape is no key');
  const frame = decodeFrame({ kind: 'line', bytes: Buffer.from('{"jsonrpc":"2.0","x":{"id":77},"id":6,,}') }, 1000);
  t.match(frame, { kind: 'invalid', id: 6, error: { code: -32700 } }, 'the parse error answers request 6');
});

t.test('id recovery only trusts a complete member: a value the text ends in may be cut', async (t) => {
  t.equal(recoverRequestId('{"jsonrpc":"2.0","id":12'), null, 'cut inside "id":123');
  t.equal(recoverRequestId('{"id":"ab'), null, 'an unclosed string');
  t.equal(recoverRequestId('{"id":"ab"'), null, 'a closed string the text ends after');
  t.equal(
    recoverRequestId('{"id":"A"}{"x":1}'),
    'A',
    'a complete member (the engine checks it names no request in flight)',
  );
  t.equal(recoverRequestId('{"id":7 }junk'), 7);
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

t.test('numeric ids come back exactly as written: beyond 2^53, 1.0, exponents (and requestId)', async (t) => {
  const frame = (text: string) => decodeFrame({ kind: 'line', bytes: Buffer.from(text) }, 100_000);
  const big = frame('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}');
  t.ok(big?.kind === 'value' && (big.value as { id: unknown }).id instanceof RawNumber);
  t.equal(serializeId((big as { value: { id: RequestId } }).value.id), '9007199254740993');
  const forms = ['1.0', '1e2', '-0', '12345678901234567890', '1E400'];
  for (const form of forms) {
    const decoded = frame(`{"id":${form},"method":"x"}`) as { value: { id: RequestId } };
    t.equal(serializeId(decoded.value.id), form, `${form} is kept`);
  }
  const plain = frame('{"id":42,"method":"x","params":{"id":9007199254740993}}') as { value: { id: RequestId } };
  t.equal(plain.value.id, 42, 'a canonical id stays a number');
  const cancel = frame(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740993}}',
  ) as { value: { params: { requestId: RequestId } } };
  t.equal(serializeId(cancel.value.params.requestId), '9007199254740993');
  t.equal(requestKey(cancel.value.params.requestId), requestKey((big as { value: { id: RequestId } }).value.id));
  const duplicate = frame('{"id":9007199254740993,"id":7,"method":"x"}') as { value: { id: RequestId } };
  t.equal(duplicate.value.id, 7, 'the last duplicate member wins, as in JSON.parse');
  const notification = frame('{"jsonrpc":"2.0","method":"x","params":{"a":1}}') as { value: object };
  t.notOk('id' in notification.value, 'a notification gains no id member');
  const batch = frame('[{"id":9007199254740995,"method":"a"},5,"s",{"id":1e2,"method":"b"},{"method":"n"}]') as {
    value: Array<{ id?: RequestId }>;
  };
  t.same(
    batch.value.map((m) => (typeof m === 'object' && m.id !== undefined ? serializeId(m.id) : m)),
    ['9007199254740995', 5, 's', '1e2', { method: 'n' }],
  );
  t.equal(serializeId(recoverRequestId('{"id":9007199254740993,"method":"x"') as RequestId), '9007199254740993');
});

t.test('a progress token beyond 2^53 comes back exactly as written; usual tokens stay as parsed', async (t) => {
  type Meta = { progressToken: unknown; x?: { progressToken: unknown } };
  type Params = { _meta: Meta; arguments?: { progressToken: unknown } };
  const paramsOf = (text: string) =>
    (decodeFrame({ kind: 'line', bytes: Buffer.from(text) }, 100_000) as { value: { params: Params } }).value.params;
  const call = (id: string, token: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"_meta":{"progressToken":${token}}}}`;
  const tokenOf = (id: string, token: string) => paramsOf(call(id, token))._meta.progressToken;
  for (const id of ['"s"', '7']) {
    for (const token of ['9007199254740993', '-18446744073709551617', '1.50', '1E400']) {
      const kept = tokenOf(id, token);
      t.ok(kept instanceof RawNumber && kept.text === token, `${token} is kept (id ${id})`);
    }
    t.equal(tokenOf(id, '42'), 42, `a safe integer stays a number (id ${id})`);
    t.equal(tokenOf(id, '"9007199254740993"'), '9007199254740993', `a string stays a string (id ${id})`);
    // Whether the line is scanned (numeric id) or not, a safe integer reads the same.
    t.equal(tokenOf(id, '1.0'), 1, `1.0 reads as 1 either way (id ${id})`);
  }
  const nested = paramsOf(
    '{"id":"s","method":"x","params":{"arguments":{"progressToken":9007199254740993},' +
      '"_meta":{"progressToken":9007199254740995,"x":{"progressToken":9007199254740997}}}}',
  );
  t.equal(String(nested._meta.progressToken), '9007199254740995', 'the token of _meta itself');
  t.equal(typeof nested.arguments?.progressToken, 'number', 'a member of that name elsewhere is left');
  t.equal(typeof nested._meta.x?.progressToken, 'number', 'and so is one deeper in _meta');
  const duplicate = paramsOf(
    '{"id":"s","method":"x","params":{"_meta":{"progressToken":9007199254740993,"progressToken":9007199254740995}}}',
  );
  t.equal(String(duplicate._meta.progressToken), '9007199254740995', 'the last duplicate wins, as in JSON.parse');
  const batch = decodeFrame(
    { kind: 'line', bytes: Buffer.from(`[${call('"a"', '9007199254740993')},${call('"b"', '"p"')}]`) },
    100_000,
  ) as { value: Array<{ params: Params }> };
  t.same(
    batch.value.map((m) => String(m.params._meta.progressToken)),
    ['9007199254740993', 'p'],
    'in a batch, per message',
  );
});

t.test('messages nested deeper than the limit are replaced, not walked; shallower ones pass', async (t) => {
  const frame = (text: string) => decodeFrame({ kind: 'line', bytes: Buffer.from(text) }, 10_000_000);
  const nest = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const deep = frame(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":${nest(5000)}}}`);
  t.ok(deep?.kind === 'value' && deep.value instanceof OverNestedMessage);
  t.match((deep as { value: OverNestedMessage }).value, { id: 2, method: 'logging/setLevel', depth: 5002 });
  const limit = frame(`{"id":3,"method":"x","params":{"a":${nest(MAX_NESTING_DEPTH - 2)}}}`);
  t.notOk((limit as { value: unknown }).value instanceof OverNestedMessage, `${MAX_NESTING_DEPTH} levels pass`);
  const over = frame(`{"id":3,"method":"x","params":{"a":${nest(MAX_NESTING_DEPTH - 1)}}}`);
  t.ok((over as { value: unknown }).value instanceof OverNestedMessage, 'one more is refused');
  const batch = frame(`[{"id":1,"method":"a"},${nest(400)},{"id":2,"method":"b","params":[${nest(300)}]}]`) as {
    value: unknown[];
  };
  t.same(
    batch.value.map((element) => element instanceof OverNestedMessage),
    [false, true, true],
    'each batch element is judged on its own',
  );
  const strings = frame(`{"id":4,"method":"x","params":{"s":"${'[{'.repeat(3000)}"}}`) as { value: unknown };
  t.notOk(strings.value instanceof OverNestedMessage, 'brackets inside strings do not count');
});
