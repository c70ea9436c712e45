import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { loadServerConfig } from '../../src/config/server-config.js';
import { RawNumber } from '../../src/json/raw-number.js';
import { fullJsonTools, sandbox, sh } from '../helpers/sdk-harness.js';

// mcp_args_get answers plain paths from MCP_TOOL_ARGS_FLAT without a JSON process (D298):
// byte for byte what `jq -rc FILTER` prints (trailing newlines dropped), checked here over a
// corpus against jq, gojq and the built-in jq; anything else still goes to the JSON tool.
const ARGS = {
  name: 'Ada',
  empty: '',
  hostile: 'quote " backslash \\ dollar $HOME `tick` %0A percent % tab\there\nnew line\r\n',
  trailing: 'ends with newlines\n\n\n',
  unicode: 'é ☃ 🎉 \u200b \u007f \u0001',
  zero: 0,
  negative: -42,
  big: 9007199254740991,
  // Numbers JavaScript cannot write as the client did come as RawNumbers (the server's parse).
  tooBig: new RawNumber('12345678901234567890'),
  oneDotZero: new RawNumber('1.0'),
  thousand: new RawNumber('1e3'),
  float: 1.5,
  exp: 1e21,
  yes: true,
  no: false,
  nothing: null,
  list: [1, 'two', { three: 3 }],
  nested: { inner: { deep: 'down', count: 7, off: false, none: null }, text: 'x\ny' },
  'dash-key': 'not a name',
  withNul: 'a\u0000b',
};

/** Filters the fast path answers. */
const FAST = [
  '.name',
  '.empty',
  '.hostile',
  '.trailing',
  '.unicode',
  '.zero',
  '.negative',
  '.big',
  '.yes',
  '.no',
  '.nothing',
  '.missing',
  '.missing.deeper',
  '.nested.inner.deep',
  '.nested.inner.count',
  '.nested.inner.off',
  '.nested.inner.none',
  '.nested.inner.absent',
  '.nested.text',
  '.name // "World"',
  '.missing // "World"',
  '.nothing // "fallback é"',
  '.no // true',
  '.missing // 5',
  '.missing // -7',
  '.missing // null',
  '.empty // "x"',
  '.zero // 9',
  '  .name  //  "spaced"  ',
  '.name//"tight"',
  '\t.missing\n//0\n',
  '.missing // 123456789012345',
];

/** Filters left to the JSON tool: values jq prints in ways that differ, containers, errors, other syntax. */
const SLOW = [
  '.tooBig',
  '.oneDotZero',
  '.thousand',
  '.float',
  '.exp',
  '.list',
  '.nested',
  '.nested.inner',
  '.withNul',
  '.name.first',
  '.list.x',
  '.["dash-key"]',
  '.name | ascii_upcase',
  '.missing // "a\\nb"',
  '.',
  '.name // .empty',
  '..name',
  '.name.',
  '.1x',
  '.name //',
  '.name // "open',
  '.name // 01',
  '.missing // 1234567890123456',
  '.name // "x" // "y"',
  '.na me',
  '.name // tru',
  '.café',
  '.name\v',
  '\f.name',
  '.name\u3000',
  '.missing //\v"x"',
];

const frame = (filter: string) =>
  `out="$(mcp_args_get ${sh(filter)} 2>/dev/null)" && rc=0 || { rc=$?; out=""; }; printf '<%s|%s>\\n' "$rc" "$out"`;
const reference = (filter: string) =>
  `out="$(printf '%s' "$MCP_TOOL_ARGS_JSON" | "$MCPBASH_JSON_TOOL_BIN" -rc ${sh(filter)} 2>/dev/null)" && rc=0 || ` +
  `{ rc=$?; out=""; }; printf '<%s|%s>\\n' "$rc" "$out"`;

for (const tool of fullJsonTools()) {
  t.test(`the fast path prints what ${tool.name} prints`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);
    const filters = [...FAST, ...SLOW];
    const theirs = await box.run(filters.map(reference).join('\n'), { tool, args: ARGS });
    const ours = await box.run(filters.map(frame).join('\n'), { tool, args: ARGS });
    t.equal(ours.code, 0, ours.stderr);
    const expected = theirs.stdout.split('<').slice(1);
    const got = ours.stdout.split('<').slice(1);
    for (const [index, filter] of filters.entries()) {
      if (FAST.includes(filter)) t.equal(got[index], expected[index], filter);
    }
    // Where jq errs (a string indexed, a syntax error), mcp_args_get errs too; elsewhere the same text.
    for (const [index, filter] of filters.entries()) {
      if (FAST.includes(filter)) continue;
      if (expected[index]?.startsWith('0|')) t.equal(got[index], expected[index], filter);
      else t.notOk(got[index]?.startsWith('0|'), `${JSON.stringify(filter)}: an error, as ${tool.name} gives`);
    }
  });
}

t.test('the plain paths run no JSON process; the others still do', async (t) => {
  const box = sandbox(t);
  const failing = join(box.dir, 'failing-jq');
  writeFileSync(failing, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
  const real = fullJsonTools().find((tool) => !tool.skip);
  const options = { tool: { name: 'jq', bin: failing } as const, args: ARGS };
  const run = await box.run([...FAST, ...SLOW].map(frame).join('\n'), options);
  const results = run.stdout.split('<').slice(1);
  const reference = await box.run(FAST.map(frame).join('\n'), { tool: real, args: ARGS });
  t.same(results.slice(0, FAST.length), reference.stdout.split('<').slice(1), 'every plain path answered');
  t.ok(
    results.slice(FAST.length).every((result) => !result.startsWith('0|')),
    'every other filter went to the JSON tool (which failed)',
  );
});

t.test('arguments the tool set itself are read, not the form the server made of its own', async (t) => {
  const box = sandbox(t);
  const real = fullJsonTools().find((tool) => !tool.skip);
  const run = await box.run(
    `mcp_args_get .name; echo; MCP_TOOL_ARGS_JSON='{"name":"Bob"}'; mcp_args_get .name; echo
     MCP_TOOL_ARGS_JSON='{"name":"Ada"}'; printf '{"name":"Cy"}' >"$TMPDIR/args.json"
     MCP_TOOL_ARGS_FILE="$TMPDIR/args.json" mcp_args_get .name`,
    { tool: real, args: { name: 'Ada' } },
  );
  t.equal(run.stdout, 'Ada\nBob\nCy', run.stderr);
});

t.test('arguments whose flat form would pass the payload threshold get none; jq reads them', async (t) => {
  const threshold = loadServerConfig({}).envPayloadThreshold;
  // Short values under long names: the JSON fits, the form (each name again, per record) does not.
  const args = Object.fromEntries(
    Array.from({ length: Math.ceil(threshold / 40) }, (_, i) => [`k${i}${'_'.repeat(24)}`, i]),
  );
  t.ok(JSON.stringify(args).length < threshold, 'the JSON itself is inline');
  const box = sandbox(t);
  const real = fullJsonTools().find((tool) => !tool.skip);
  const run = await box.run(
    `printf '[%s]\\n' "\${MCP_TOOL_ARGS_FLAT-unset}" "\${MCP_TOOL_ARGS_FILE-}"; mcp_args_get .k7${'_'.repeat(24)}`,
    { tool: real, args },
  );
  t.equal(run.stdout, '[unset]\n[]\n7');
});
