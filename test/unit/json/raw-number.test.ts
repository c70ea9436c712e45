import t from 'tap';
import { RawNumber, stringifyExact } from '../../../src/json/raw-number.js';

t.test('stringifyExact writes a RawNumber as the bare number it was sent as, at any depth', async (t) => {
  const token = new RawNumber('9007199254740993');
  t.equal(
    stringifyExact({ method: 'notifications/progress', params: { progressToken: token, progress: 1 } }),
    '{"method":"notifications/progress","params":{"progressToken":9007199254740993,"progress":1}}',
  );
  t.equal(stringifyExact([new RawNumber('1.0'), { a: [new RawNumber('-1e400')] }]), '[1.0,{"a":[-1e400]}]');
  t.equal(stringifyExact(token), '9007199254740993', 'a RawNumber alone');
  t.equal(JSON.stringify({ id: token }), '{"id":"9007199254740993"}', 'plain JSON.stringify (logs) quotes it');
});

t.test('everything else is written as JSON.stringify writes it', async (t) => {
  const value = { s: 'mcpbash-raw-number-x-0', n: 2 ** 53 + 2, nested: { list: [1, 'two', null], u: undefined } };
  t.equal(stringifyExact(value), JSON.stringify(value));
  t.equal(stringifyExact(undefined), undefined);
  const mixed = { text: '"quoted" \\u0000', token: new RawNumber('12345678901234567890') };
  t.equal(stringifyExact(mixed), '{"text":"\\"quoted\\" \\\\u0000","token":12345678901234567890}');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  t.throws(() => stringifyExact(cyclic), TypeError, 'a cycle throws, as in JSON.stringify');
});
