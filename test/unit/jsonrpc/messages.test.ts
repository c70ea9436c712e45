import t from 'tap';
import { classifyMessage } from '../../../src/jsonrpc/messages.js';

t.test('requests, notifications and responses', async (t) => {
  t.same(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'm', params: { a: 1 } }), {
    kind: 'request',
    id: 1,
    method: 'm',
    params: { a: 1 },
  });
  t.same(classifyMessage({ jsonrpc: '2.0', id: null, method: 'm' }), {
    kind: 'request',
    id: null,
    method: 'm',
    params: undefined,
  });
  t.same(classifyMessage({ jsonrpc: '2.0', method: 'n', params: [1] }), {
    kind: 'notification',
    method: 'n',
    params: [1],
  });
  t.match(classifyMessage({ jsonrpc: '2.0', id: 'r', result: {} }), { kind: 'response', id: 'r' });
  t.match(classifyMessage({ jsonrpc: '2.0', id: 2, error: { code: 1, message: 'x' } }), { kind: 'response', id: 2 });
});

t.test('a method without an id is a notification, however malformed', async (t) => {
  t.same(classifyMessage({ jsonrpc: '2.0', method: 'n', params: 3 }), {
    kind: 'malformed-notification',
    method: 'n',
    problem: 'params must be an object or an array',
  });
  t.same(classifyMessage({ jsonrpc: '1.0', method: 'n' }), {
    kind: 'malformed-notification',
    method: 'n',
    problem: 'jsonrpc must be "2.0"',
  });
  t.same(classifyMessage({ method: 5 }), {
    kind: 'malformed-notification',
    method: 5,
    problem: 'method must be a string',
  });
});

t.test('everything else is invalid, under the id when it is usable', async (t) => {
  t.same(classifyMessage(42), { kind: 'invalid', id: null, detail: 'Expected a JSON-RPC message object' });
  t.same(classifyMessage([]), { kind: 'invalid', id: null, detail: 'Expected a JSON-RPC message object' });
  t.same(classifyMessage({ jsonrpc: '2.0', id: 3 }), { kind: 'invalid', id: 3, detail: 'Missing method' });
  t.same(classifyMessage({ jsonrpc: '1.0', id: 4, method: 'm' }), {
    kind: 'invalid',
    id: 4,
    detail: 'jsonrpc must be "2.0"',
  });
  t.same(classifyMessage({ jsonrpc: '2.0', id: 5, method: 'm', params: 'x' }), {
    kind: 'invalid',
    id: 5,
    detail: 'params must be an object or an array',
  });
  t.same(classifyMessage({ jsonrpc: '2.0', id: { x: 1 }, method: 'm' }), {
    kind: 'invalid',
    id: null,
    detail: 'id must be a string or a number',
  });
  t.same(classifyMessage({ jsonrpc: '2.0', id: 6, method: 7 }), { kind: 'invalid', id: 6, detail: 'Missing method' });
  t.same(classifyMessage({ jsonrpc: '2.0', id: { x: 1 }, result: {} }), {
    kind: 'invalid',
    id: null,
    detail: 'Missing method',
  });
});
