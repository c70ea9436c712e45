import t from 'tap';
import { type EngineOptions, JsonRpcEngine } from '../../../src/jsonrpc/engine.js';
import type { RequestId } from '../../../src/jsonrpc/messages.js';
import { RpcError } from '../../../src/spec/rpc-error.js';
import { MemoryTransport } from '../../helpers/memory-transport.js';

function setup(options: Partial<EngineOptions> = {}) {
  const transport = new MemoryTransport();
  const logs: string[] = [];
  const engine = new JsonRpcEngine(transport, {
    maxConcurrent: 2,
    maxResponseBytes: 1_000_000,
    log: (level, message) => logs.push(`${level}: ${message}`),
    ...options,
  });
  engine.start();
  return { transport, engine, logs };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

t.test("a request gets its handler's result under its own id", async (t) => {
  const { transport, engine } = setup();
  engine.setRequestHandler('echo', ({ params }) => ({ got: params }));
  transport.deliver({ jsonrpc: '2.0', id: 'a', method: 'echo', params: { x: 1 } });
  t.same(await transport.response('a'), { jsonrpc: '2.0', id: 'a', result: { got: { x: 1 } } });
});

t.test('numeric and string ids are different requests', async (t) => {
  const { transport, engine } = setup();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  engine.setRequestHandler('wait', async () => {
    await gate;
    return 'done';
  });
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'wait' });
  transport.deliver({ jsonrpc: '2.0', id: '1', method: 'wait' });
  await tick();
  t.equal(transport.sent.length, 0, 'no duplicate-id error');
  release();
  t.equal((await transport.response(1)).result, 'done');
  t.equal((await transport.response('1')).result, 'done');
});

t.test('an id still in flight is refused as a duplicate', async (t) => {
  const { transport, engine } = setup();
  engine.setRequestHandler('wait', () => new Promise(() => {}));
  transport.deliver({ jsonrpc: '2.0', id: 7, method: 'wait' });
  transport.deliver({ jsonrpc: '2.0', id: 7, method: 'wait' });
  const reply = await transport.response(7);
  t.equal((reply.error as { code: number }).code, -32600);
  t.match((reply.error as { data: string }).data, /Duplicate request id/);
});

t.test('unknown methods get -32601; notifications never get a reply', async (t) => {
  const { transport, engine } = setup();
  let notified = 0;
  engine.setNotificationHandler('note', () => {
    notified += 1;
  });
  transport.deliver({ jsonrpc: '2.0', method: 'note' });
  transport.deliver({ jsonrpc: '2.0', method: 'unknown/notification' });
  transport.deliver({ jsonrpc: '2.0', id: 3, method: 'no/such' });
  const reply = await transport.response(3);
  t.same(reply.error, { code: -32601, message: 'Method not found', data: 'no/such' });
  await tick();
  t.equal(notified, 1);
  t.equal(transport.sent.length, 1, 'only the request was answered');
});

t.test('RpcErrors keep their code; other exceptions become -32603 with details on the log', async (t) => {
  const { transport, engine, logs } = setup();
  engine.setRequestHandler('bad-params', () => {
    throw RpcError.invalidParams('nope', { field: 'x' });
  });
  engine.setRequestHandler('bug', () => {
    throw new TypeError('boom');
  });
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'bad-params' });
  transport.deliver({ jsonrpc: '2.0', id: 2, method: 'bug' });
  t.same((await transport.response(1)).error, { code: -32602, message: 'nope', data: { field: 'x' } });
  const bug = (await transport.response(2)).error as { code: number; message: string };
  t.equal(bug.code, -32603);
  t.notMatch(bug.message, /boom/, 'no internals on the wire');
  t.match(logs.join('\n'), /TypeError: boom/);
});

t.test('malformed messages get -32600 with the id when it is usable', async (t) => {
  const { transport } = setup();
  transport.deliver({ jsonrpc: '2.0', id: 9 });
  transport.deliver({ jsonrpc: '1.0', id: 10, method: 'x' });
  transport.deliver({ jsonrpc: '2.0', id: 11, method: 'x', params: 'scalar' });
  transport.deliver({ jsonrpc: '2.0', id: { bad: true }, method: 'x' });
  transport.deliver(42);
  await tick();
  const errors = transport.sent as Array<{ id: unknown; error: { code: number; data: string } }>;
  t.same(
    errors.map((e) => [e.id, e.error.code]),
    [
      [9, -32600],
      [10, -32600],
      [11, -32600],
      [null, -32600],
      [null, -32600],
    ],
  );
  t.match(errors[0]?.error.data, /Missing method/);
});

t.test('queued handlers respect the concurrency limit and run in arrival order', async (t) => {
  const { transport, engine } = setup({ maxConcurrent: 2 });
  const started: number[] = [];
  const releases: Array<() => void> = [];
  engine.setRequestHandler(
    'slow',
    ({ params }) => {
      started.push((params as { n: number }).n);
      return new Promise((resolve) => releases.push(() => resolve('ok')));
    },
    { queued: true },
  );
  engine.setRequestHandler('ping', () => ({}));
  for (let n = 1; n <= 4; n += 1) transport.deliver({ jsonrpc: '2.0', id: n, method: 'slow', params: { n } });
  transport.deliver({ jsonrpc: '2.0', id: 'p', method: 'ping' });
  await transport.response('p');
  t.equal(transport.sent.length, 1, 'ping is not held up: answered while the slow ones wait');
  await tick();
  t.same(started, [1, 2], 'two run, two wait');
  releases.shift()?.();
  await transport.response(1);
  await tick();
  t.same(started, [1, 2, 3]);
  while (releases.length > 0) {
    releases.shift()?.();
    await tick();
  }
  await transport.response(4);
  t.same(started, [1, 2, 3, 4]);
});

t.test('cancelling a running request aborts its signal and suppresses its response', async (t) => {
  const { transport, engine } = setup();
  let aborted = false;
  engine.setRequestHandler(
    'slow',
    ({ signal }) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          aborted = true;
          reject(signal.reason);
        });
      }),
    { queued: true },
  );
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'slow' });
  await tick();
  t.ok(engine.cancel(1));
  t.notOk(engine.cancel(1), 'a second cancel is a no-op');
  t.notOk(engine.cancel(99), 'unknown ids are ignored');
  await tick();
  t.ok(aborted);
  t.equal(transport.sent.length, 0, 'no response at all');
  t.equal(engine.activeRequests, 0);
});

t.test('cancelling a queued request removes it before it starts', async (t) => {
  const { transport, engine } = setup({ maxConcurrent: 1 });
  const started: number[] = [];
  let release!: () => void;
  engine.setRequestHandler(
    'slow',
    ({ params }) => {
      started.push((params as { n: number }).n);
      return new Promise((resolve) => {
        release = () => resolve('ok');
      });
    },
    { queued: true },
  );
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'slow', params: { n: 1 } });
  transport.deliver({ jsonrpc: '2.0', id: 2, method: 'slow', params: { n: 2 } });
  await tick();
  t.ok(engine.cancel(2));
  release();
  await transport.response(1);
  await tick();
  t.same(started, [1], 'the cancelled request never ran');
  t.equal(transport.sent.length, 1);
});

t.test('context.notify is dropped once the request has settled', async (t) => {
  const { transport, engine } = setup();
  let later!: () => void;
  engine.setRequestHandler('work', ({ notify }) => {
    notify('progress', { n: 1 });
    later = () => notify('progress', { n: 2 });
    return 'done';
  });
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'work' });
  await transport.response(1);
  later();
  const notes = transport.sent.filter((m) => (m as { method?: string }).method === 'progress');
  t.same(notes, [{ jsonrpc: '2.0', method: 'progress', params: { n: 1 } }]);
});

t.test('outgoing requests resolve on the matching response; late or unknown responses are ignored', async (t) => {
  const { transport, engine, logs } = setup();
  const answer = engine.request('roots/list', undefined, { timeoutMs: 1000 });
  const sent = (await transport.next((m) => (m as { method?: string }).method === 'roots/list')) as { id: number };
  transport.deliver({ jsonrpc: '2.0', id: sent.id, result: { roots: [] } });
  t.same(await answer, { roots: [] });
  const failing = engine.request('elicitation/create', {}, { timeoutMs: 1000 });
  const sent2 = (await transport.next((m) => (m as { method?: string }).method === 'elicitation/create')) as {
    id: number;
  };
  transport.deliver({ jsonrpc: '2.0', id: sent2.id, error: { code: -1, message: 'user closed' } });
  t.match(
    await failing.then(
      () => undefined,
      (e: unknown) => e,
    ),
    { code: -1, message: 'user closed' },
  );
  transport.deliver({ jsonrpc: '2.0', id: 12345, result: {} });
  t.match(logs.join('\n'), /unknown request id 12345/);
});

t.test('an outgoing request times out, and its late answer is ignored', async (t) => {
  const { transport, engine, logs } = setup();
  const answer = engine.request('roots/list', undefined, { timeoutMs: 20 });
  const sent = (await transport.next((m) => (m as { method?: string }).method === 'roots/list')) as { id: string };
  const error = await answer.then(
    () => undefined,
    (e: Error) => e,
  );
  t.match(error?.message, /no response within 20 ms/);
  t.same(logs, [], 'nothing logged yet');
  transport.deliver({ jsonrpc: '2.0', id: sent.id, result: { roots: [] } });
  t.same(
    logs,
    [`debug: ignoring a response to unknown request id "${sent.id}"`],
    'the late answer is taken for a stray one: the timeout forgot the request',
  );
  t.equal(transport.sent.length, 1, 'and nothing is sent in reply');
  transport.deliver({ jsonrpc: '2.0', id: sent.id, result: { roots: [] } });
  t.equal(logs.length, 2, 'a second late answer too');
});

t.test('batches: refused with -32600 unless allowed; answered as one array when allowed', async (t) => {
  let allow = false;
  const { transport, engine } = setup({ batchRefusal: () => (allow ? undefined : 'Batch arrays are disabled') });
  engine.setRequestHandler('echo', ({ params }) => params);
  transport.deliver([{ jsonrpc: '2.0', id: 1, method: 'echo', params: [1] }]);
  await tick();
  t.same(transport.sent.pop(), [
    { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid Request', data: 'Batch arrays are disabled' } },
  ]);
  allow = true;
  transport.deliver([
    { jsonrpc: '2.0', id: 1, method: 'echo', params: [1] },
    { jsonrpc: '2.0', method: 'echo' },
    { jsonrpc: '2.0', id: 2, method: 'missing' },
  ]);
  const batch = (await transport.next(Array.isArray)) as Array<{ id: number }>;
  t.same(
    batch.map((r) => r.id),
    [1, 2],
    'one reply per request, none for the notification',
  );
});

t.test('an oversized response is replaced by -32603', async (t) => {
  const { transport, engine } = setup({ maxResponseBytes: 100 });
  engine.setRequestHandler('big', () => 'x'.repeat(500));
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'big' });
  const reply = await transport.response(1);
  t.match(reply.error, { code: -32603, message: 'Response exceeded response size limit' });
});

t.test('admit() gates requests and silently drops refused notifications', async (t) => {
  const { transport, engine } = setup({
    admit: (method) => (method === 'open' ? undefined : new RpcError(-32000, 'Server not initialized')),
  });
  let noted = false;
  engine.setNotificationHandler('closed/note', () => {
    noted = true;
  });
  engine.setRequestHandler('closed', () => 'should not run');
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'closed' });
  transport.deliver({ jsonrpc: '2.0', method: 'closed/note' });
  t.same((await transport.response(1)).error, { code: -32000, message: 'Server not initialized' });
  t.notOk(noted);
});

t.test('shutdown aborts running handlers and waits for them', async (t) => {
  const { transport, engine } = setup();
  let aborted = false;
  engine.setRequestHandler(
    'slow',
    ({ signal }) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          aborted = true;
          setTimeout(() => resolve('late'), 10);
        });
      }),
  );
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'slow' });
  await tick();
  await engine.shutdown(1000);
  t.ok(aborted);
  t.equal(engine.activeRequests, 0);
  t.equal(transport.sent.length, 0, 'an aborted request is not answered');
});

t.test(
  'a refused batch answers each request with its own error, in one array; notifications and responses get nothing',
  async (t) => {
    const { transport, engine, logs } = setup({
      batchRefusal: () => 'Batch arrays are not allowed for protocol 2025-11-25',
    });
    let noted = false;
    engine.setNotificationHandler('note', () => {
      noted = true;
    });
    engine.setRequestHandler('echo', () => 'ran');
    const refused = {
      code: -32600,
      message: 'Invalid Request',
      data: 'Batch arrays are not allowed for protocol 2025-11-25',
    };
    transport.deliver([
      { jsonrpc: '2.0', id: 'a', method: 'echo' },
      { jsonrpc: '2.0', method: 'note' },
      { jsonrpc: '2.0', id: 99, result: {} },
      { jsonrpc: '2.0', id: 2, method: 'echo' },
      7,
    ]);
    await tick();
    t.same(transport.sent, [
      [
        { jsonrpc: '2.0', id: 'a', error: refused },
        { jsonrpc: '2.0', id: 2, error: refused },
        { jsonrpc: '2.0', id: null, error: refused },
      ],
    ]);
    t.notOk(noted, 'nothing in a refused batch runs');
    transport.deliver([{ jsonrpc: '2.0', method: 'note' }]);
    await tick();
    t.equal(transport.sent.length, 1, 'a refused batch of notifications is not answered');
    t.match(logs.join('\n'), /dropped a refused batch/);
    transport.deliver([]);
    t.same(transport.sent.pop(), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request', data: 'Empty batch' },
    });
  },
);

t.test('a notification is never answered, even a malformed one; it is noted at debug', async (t) => {
  const { transport, engine, logs } = setup();
  let calls = 0;
  engine.setNotificationHandler('note', () => {
    calls += 1;
  });
  transport.deliver({ jsonrpc: '2.0', method: 'note', params: 'scalar' });
  transport.deliver({ jsonrpc: '1.0', method: 'note' });
  transport.deliver({ jsonrpc: '2.0', method: 42 });
  transport.deliver({ method: 'note' });
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'note', params: 'scalar' });
  await transport.response(1);
  await tick();
  t.equal(transport.sent.length, 1, 'only the request with an id got an error');
  t.equal(calls, 1, 'a notification without jsonrpc still runs');
  t.equal(logs.filter((line) => line.startsWith('debug: dropped a malformed notification')).length, 3);
});

t.test('per-method response limits; an oversized error loses its data, never its code', async (t) => {
  const { transport, engine, logs } = setup({
    maxResponseBytes: 200,
    maxResponseBytesByMethod: new Map([['list', 10_000]]),
  });
  engine.setRequestHandler('list', () => ({ items: 'x'.repeat(1000) }));
  engine.setRequestHandler('other', () => ({ items: 'x'.repeat(1000) }));
  engine.setRequestHandler('fail', () => {
    throw new RpcError(-32050, 'custom failure', 'd'.repeat(1000));
  });
  engine.setRequestHandler('fail-long', () => {
    throw new RpcError(-32050, 'm'.repeat(1000));
  });
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'list' });
  transport.deliver({ jsonrpc: '2.0', id: 2, method: 'other' });
  transport.deliver({ jsonrpc: '2.0', id: 3, method: 'fail' });
  transport.deliver({ jsonrpc: '2.0', id: 4, method: 'fail-long' });
  t.match((await transport.response(1)).result, { items: /^x{1000}$/ }, 'the list has its own, larger limit');
  t.match((await transport.response(2)).error, {
    code: -32603,
    message: 'Response exceeded response size limit',
    data: { limit: 200 },
  });
  t.same((await transport.response(3)).error, { code: -32050, message: 'custom failure' });
  t.same((await transport.response(4)).error, { code: -32050, message: 'Error message exceeded response size limit' });
  t.match(logs.join('\n'), /its data was dropped/);
});

t.test('admit() sees the params before the handler does', async (t) => {
  const seen: unknown[] = [];
  const { transport, engine } = setup({
    admit: (_method, kind, params) => {
      seen.push([kind, params]);
      const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      if (meta) delete meta.secret;
      return undefined;
    },
  });
  engine.setRequestHandler('echo', ({ params }) => params);
  transport.deliver({ jsonrpc: '2.0', id: 1, method: 'echo', params: { _meta: { secret: 's', keep: 1 } } });
  t.same((await transport.response(1)).result, { _meta: { keep: 1 } });
  t.same(seen, [['request', { _meta: { keep: 1 } }]]);
});

t.test('ids beyond 2^53 (and other raw numbers) are echoed exactly, and cancellation finds them', async (t) => {
  const { transport, engine } = setup();
  engine.setRequestHandler('echo', () => 'ok');
  let aborted = false;
  engine.setRequestHandler('wait', ({ signal }) => {
    signal.addEventListener('abort', () => {
      aborted = true;
    });
    return new Promise(() => {});
  });
  engine.setNotificationHandler('cancel', (params) => {
    engine.cancel((params as { requestId: RequestId }).requestId);
  });
  transport.deliverLine('{"jsonrpc":"2.0","id":9007199254740993,"method":"echo"}');
  transport.deliverLine('{"jsonrpc":"2.0","id":1.50,"method":"missing"}');
  transport.deliverLine('[{"jsonrpc":"2.0","id":18446744073709551617,"method":"echo"}]');
  await tick();
  t.same(transport.lines.slice(0, 3).sort(), [
    '[{"jsonrpc":"2.0","id":18446744073709551617,"result":"ok"}]',
    '{"jsonrpc":"2.0","id":1.50,"error":{"code":-32601,"message":"Method not found","data":"missing"}}',
    '{"jsonrpc":"2.0","id":9007199254740993,"result":"ok"}',
  ]);
  transport.deliverLine('{"jsonrpc":"2.0","id":9007199254740995,"method":"wait"}');
  transport.deliverLine('{"jsonrpc":"2.0","method":"cancel","params":{"requestId":9007199254740994}}');
  await tick();
  t.notOk(aborted, 'a neighbouring id (the same double) is not cancelled');
  transport.deliverLine('{"jsonrpc":"2.0","method":"cancel","params":{"requestId":9007199254740995}}');
  await tick();
  t.ok(aborted, 'the exact id is');
});

t.test('a message nested too deeply costs only its own reply; a deep notification or response gets none', async (t) => {
  const { transport, engine, logs } = setup({ batchRefusal: () => undefined });
  let handled = 0;
  engine.setRequestHandler('setLevel', () => {
    handled += 1;
    return {};
  });
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  transport.deliverLine(`{"jsonrpc":"2.0","id":2,"method":"setLevel","params":{"level":${deep}}}`);
  transport.deliverLine(`{"jsonrpc":"2.0","method":"setLevel","params":{"level":${deep}}}`);
  transport.deliverLine(`{"jsonrpc":"2.0","id":"r1","result":${deep}}`);
  transport.deliverLine(`[{"jsonrpc":"2.0","id":3,"method":"setLevel"},${deep}]`);
  transport.deliverLine('{"jsonrpc":"2.0","id":4,"method":"setLevel","params":{}}');
  const reply = await transport.response(2);
  t.match(reply.error, { code: -32600, data: /nested 5002 levels deep; at most 256/ });
  const batch = (await transport.next(Array.isArray)) as Array<{ id: unknown; error?: unknown }>;
  t.same(
    batch.map((r) => [r.id, r.error === undefined]),
    [
      [3, true],
      [null, false],
    ],
  );
  t.same((await transport.response(4)).result, {});
  t.equal(handled, 2, 'only the shallow requests reached the handler');
  t.equal(transport.sent.length, 3, 'nothing for the deep notification or response');
  t.match(logs.join('\n'), /debug: dropped a malformed notification "setLevel": nested/);
  t.match(logs.join('\n'), /debug: ignored a response to "r1"/);
});

t.test(
  'a result or error that cannot be serialised becomes -32603 (or loses its data); the engine goes on',
  async (t) => {
    const { transport, engine, logs } = setup();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    engine.setRequestHandler('cyclic-result', () => cyclic);
    engine.setRequestHandler('cyclic-error', () => {
      throw new RpcError(-32010, 'tool failed', cyclic);
    });
    engine.setRequestHandler('bigint', () => ({ n: 10n }));
    engine.setRequestHandler('ping', () => ({}));
    for (const [id, method] of [
      [1, 'cyclic-result'],
      [2, 'cyclic-error'],
      [3, 'bigint'],
      [4, 'ping'],
    ] as const) {
      transport.deliver({ jsonrpc: '2.0', id, method });
    }
    t.match((await transport.response(1)).error, { code: -32603, message: /server log/ });
    t.same((await transport.response(2)).error, { code: -32010, message: 'tool failed' });
    t.match((await transport.response(3)).error, { code: -32603 });
    t.same((await transport.response(4)).result, {});
    t.match(logs.join('\n'), /could not be serialised/);
  },
);

t.test('an exception while routing a message (here: in admission) is answered with -32603 and logged', async (t) => {
  const { transport, engine, logs } = setup({
    batchRefusal: () => undefined,
    admit: (method) => {
      if (method === 'explode') throw new TypeError('admission bug');
      return undefined;
    },
  });
  engine.setRequestHandler('ping', () => ({}));
  transport.deliver({ jsonrpc: '2.0', id: 'x', method: 'explode' });
  transport.deliver({ jsonrpc: '2.0', method: 'explode' });
  transport.deliver([
    { jsonrpc: '2.0', id: 'y', method: 'explode' },
    { jsonrpc: '2.0', id: 'z', method: 'ping' },
  ]);
  t.match((await transport.response('x')).error, { code: -32603 });
  const batch = (await transport.next(Array.isArray)) as Array<{ id: string; error?: { code: number } }>;
  t.same(
    batch.map((r) => [r.id, r.error?.code]),
    [
      ['y', -32603],
      ['z', undefined],
    ],
  );
  t.equal(transport.sent.length, 2, 'the notification is not answered');
  t.match(logs.join('\n'), /error: failed to handle a message: TypeError: admission bug/);
});

t.test('a notification that cannot be serialised is dropped with a warning', async (t) => {
  const { transport, engine, logs } = setup();
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  engine.notify('notifications/message', { data: cyclic });
  engine.notify('notifications/message', { data: 'fine' });
  t.equal(transport.sent.length, 1);
  t.match(logs.join('\n'), /warning: dropped an outgoing message that cannot be serialised/);
});

t.test('our requests carry random ids; admitResponse can drop a forged answer', async (t) => {
  const { transport, engine } = setup({
    admitResponse: (response) => (response.result as { signed?: boolean } | undefined)?.signed === true,
  });
  const first = engine.request('roots/list', undefined, { timeoutMs: 2000 });
  const second = engine.request('roots/list', undefined, { timeoutMs: 2000 });
  const sent = transport.sent as Array<{ id: string }>;
  t.match(sent[0]?.id, /^mcpbash-[A-Za-z0-9_-]{16}$/);
  t.not(sent[0]?.id, sent[1]?.id);
  transport.deliver({ jsonrpc: '2.0', id: sent[0]?.id, result: { signed: false, roots: ['forged'] } });
  transport.deliver({ jsonrpc: '2.0', id: sent[0]?.id, result: { signed: true, roots: ['genuine'] } });
  t.same(await first, { signed: true, roots: ['genuine'] }, 'the dropped answer settled nothing');
  transport.deliver({ jsonrpc: '2.0', id: sent[1]?.id, result: { signed: true } });
  await second;
});
