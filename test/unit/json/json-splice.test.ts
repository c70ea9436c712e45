import t from 'tap';
import { appendToArrayMember } from '../../../src/json/json-splice.js';

const entry = { name: 'x', n: 1 };

t.test('appends to an existing array, in the layout of its elements', async (t) => {
  t.equal(appendToArrayMember('{"a":[1,2]}', 'a', 3), '{"a":[1,2, 3]}');
  t.equal(appendToArrayMember('{"a": [ {"k":1} ] }', 'a', entry), '{"a": [ {"k":1}, {"name":"x","n":1} ] }');
  t.equal(
    appendToArrayMember('{\n  "a": [\n    1\n  ]\n}\n', 'a', entry),
    '{\n  "a": [\n    1,\n    {\n      "name": "x",\n      "n": 1\n    }\n  ]\n}\n',
  );
  t.equal(
    appendToArrayMember('{\n\t"a": [\n\t\t"s"\n\t]\n}', 'a', [1]),
    '{\n\t"a": [\n\t\t"s",\n\t\t[\n\t\t\t1\n\t\t]\n\t]\n}',
    'tabs stay tabs',
  );
});

t.test('fills an empty or null array, and adds a missing member last', async (t) => {
  t.equal(appendToArrayMember('{"a":[]}', 'a', 1), '{"a":[1]}');
  t.equal(appendToArrayMember('{\n  "a": []\n}', 'a', 1), '{\n  "a": [\n    1\n  ]\n}');
  t.equal(appendToArrayMember('{"a":null,"b":2}', 'a', 1), '{"a":[1],"b":2}');
  t.equal(appendToArrayMember('{"version":1}', 'a', 1), '{"version":1, "a": [1]}');
  t.equal(appendToArrayMember('{\n  "version": 1\n}\n', 'a', 1), '{\n  "version": 1,\n  "a": [\n    1\n  ]\n}\n');
  t.equal(appendToArrayMember('{}', 'a', 1), '{"a": [1]}');
});

t.test('changes nothing else: big numbers, duplicate keys, strings with brackets, nesting', async (t) => {
  const text = '{"n": 12345678901234567890, "a": [0], "s": "]}[{,", "o": {"a": [9]}, "a": [{"deep": [[1]]}]}';
  t.equal(
    appendToArrayMember(text, 'a', 2),
    '{"n": 12345678901234567890, "a": [0], "s": "]}[{,", "o": {"a": [9]}, "a": [{"deep": [[1]]}, 2]}',
    'the last duplicate is the one JSON.parse keeps, and the one extended',
  );
  t.equal(appendToArrayMember('{"\\u0061": [1]}', 'a', 2), '{"\\u0061": [1, 2]}', 'escaped keys are recognised');
});

t.test('refuses what it cannot extend', async (t) => {
  t.equal(appendToArrayMember('[1]', 'a', 1), undefined, 'not an object');
  t.equal(appendToArrayMember('{"a": {"b": 1}}', 'a', 1), undefined, 'not an array');
  t.equal(appendToArrayMember('{"a": "text"}', 'a', 1), undefined);
});
