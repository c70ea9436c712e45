import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { type CliError, UsageError } from '../../../src/cli/cli-error.js';
import type { CommandContext } from '../../../src/cli/command.js';
import { resultExitCode } from '../../../src/cli/commands/run-tool.js';
import { redactSecrets } from '../../../src/cli/debug/payload-log.js';
import { inspectShim } from '../../../src/cli/doctor/shim.js';
import { checkName, sanitizeName } from '../../../src/cli/names.js';
import { parseOptions } from '../../../src/cli/parse-options.js';
import { sourceEnvFiles } from '../../../src/cli/run-tool/sourced-env.js';
import { parseToolArguments } from '../../../src/cli/run-tool/tool-arguments.js';
import { refuseExisting, renderTemplate } from '../../../src/cli/scaffold/template-files.js';
import { commandGroup } from '../../../src/cli/subcommands.js';
import { RawNumber, stringifyExact } from '../../../src/json/raw-number.js';
import { compareVersions } from '../../../src/text/versions.js';

t.test('names: the 1.x rule, and a usable name from any directory name', async (t) => {
  t.equal(checkName('my_tool-2', 'tool'), 'my_tool-2');
  t.throws(() => checkName('my.tool', 'tool'), /invalid tool name "my\.tool"/);
  t.equal(sanitizeName('My Project (v2)'), 'My-Project-v2');
  t.equal(sanitizeName('...'), 'mcp-server');
});

t.test('JSON templates escape the values they receive', async (t) => {
  const rendered = renderTemplate(
    '{"uri": "__URI__", "name": "__NAME__"}',
    { __URI__: 'file:///a "b"\\c', __NAME__: 'x' },
    true,
  );
  t.same(JSON.parse(rendered), { uri: 'file:///a "b"\\c', name: 'x' });
  t.equal(renderTemplate('run __NAME__ __NAME__', { __NAME__: 'y' }), 'run y y');
});

t.test('--args: JSON, @file, and the refusals', async (t) => {
  const dir = t.testdir({ 'a.json': '{"k": [1]}' });
  t.same(parseToolArguments(undefined, dir), {});
  t.same(parseToolArguments('', dir), {});
  t.same(parseToolArguments('@a.json', dir), { k: [1] });
  t.throws(() => parseToolArguments('"text"', dir), /must be a JSON object/);
  t.throws(() => parseToolArguments('{', dir), /not valid JSON/);
});

t.test('--args @FILE: a BOM is ignored; no file name and bad JSON in a file get their own messages', async (t) => {
  const dir = t.testdir({ 'bom.json': '\ufeff{"k": 1}', 'bad.json': '{"k": ' });
  t.same(parseToolArguments('@bom.json', dir), { k: 1 }, 'a leading UTF-8 BOM (Windows editors) is skipped');
  t.throws(() => parseToolArguments('@', dir), { message: '--args @ needs a file name: --args @FILE' });
  try {
    parseToolArguments('@bad.json', dir);
    t.fail('bad JSON in a file is refused');
  } catch (error) {
    t.match(error, { message: /^--args @bad\.json is not valid JSON: / });
    t.notMatch((error as CliError).hint, /Quote the object/, 'no shell-quoting advice for a file');
    t.match((error as CliError).hint, /bad\.json/);
  }
});

t.test('run-tool exit status: 1 only when the tool itself failed', async (t) => {
  t.equal(resultExitCode({ content: [], isError: false }), 0);
  t.equal(
    resultExitCode({ content: [], isError: true, _meta: { exitCode: 0 } }),
    0,
    'mcp_result_error exits 0, as in 1.x',
  );
  t.equal(resultExitCode({ content: [], isError: true, _meta: { exitCode: 3 } }), 1);
  t.equal(resultExitCode({ content: [], isError: true }), 1);
  t.equal(resultExitCode({ content: [], isError: true, _meta: { exitCode: 143 } }, true), 0, 'a timeout exits 0');
});

t.test('env files: set, changed and unset variables; shell-owned ones stay', async (t) => {
  const dir = t.testdir({
    'one.sh': 'A=1\nexport B="two words"\nunset GONE\n',
    'two.sh': 'A=overridden\nPWD=/elsewhere\n',
  });
  const merged = await sourceEnvFiles(
    [join(dir, 'one.sh'), join(dir, 'two.sh')],
    { PATH: process.env.PATH, GONE: 'x', PWD: '/start', KEEP: 'y' },
    dir,
  );
  t.match(merged, { A: 'overridden', B: 'two words', KEEP: 'y', PWD: '/start' });
  t.notOk('GONE' in merged, 'an unset variable is removed');
  await t.rejects(sourceEnvFiles([join(dir, 'missing.sh')], {}, dir), /env file not found/);
  writeFileSync(join(dir, 'bad.sh'), 'return 7\n');
  await t.rejects(sourceEnvFiles([join(dir, 'bad.sh')], { PATH: process.env.PATH }, dir), /sourcing .*bad\.sh failed/);
});

t.test('payload log redaction: secret-named keys and bearer strings, not progress tokens', async (t) => {
  t.same(
    redactSecrets({
      params: {
        _meta: { remoteToken: 'abc', progressToken: 7, nested: [{ password: 'p', api_key: 'k' }] },
        text: 'Authorization: Bearer abc.def',
      },
    }),
    {
      params: {
        _meta: {
          remoteToken: '[REDACTED]',
          progressToken: 7,
          nested: [{ password: '[REDACTED]', api_key: '[REDACTED]' }],
        },
        text: 'Authorization: Bearer [REDACTED]',
      },
    },
  );
  const big = { id: new RawNumber('9007199254740995'), params: { _meta: { progressToken: new RawNumber('1e400') } } };
  t.equal(
    stringifyExact(redactSecrets(big)),
    '{"id":9007199254740995,"params":{"_meta":{"progressToken":1e400}}}',
    'numbers kept as sent are logged as sent',
  );
});

t.test('versions compare numerically', async (t) => {
  t.equal(compareVersions('2.0.0', '1.12.3'), 1);
  t.equal(compareVersions('v1.3', '1.3.0'), 0);
  t.equal(compareVersions('1.9.9', '1.10'), -1);
  t.equal(compareVersions('2.0.0-rc.1', '2.0.0'), -1, 'a prerelease comes before its release (semver)');
  t.equal(compareVersions('2.0.0-rc.2', '2.0.0-rc.10'), -1, 'prerelease parts compare numerically');
  t.equal(compareVersions('2.0.0+build.7', '2.0.0'), 0, 'build metadata is ignored');
  t.equal(compareVersions('2.0.0.1', '2.0.0'), undefined, 'not a version');
  t.equal(compareVersions('latest', '1.0'), undefined);
});

t.test('the shim: ok, missing, broken, wrong target, a file', async (t) => {
  const dir = t.testdir({ self: '#!/bin/sh\n', other: '#!/bin/sh\n', bin: {} });
  const self = join(dir, 'self');
  const shim = (name: string) => join(dir, 'bin', name);
  symlinkSync(self, shim('ok'));
  symlinkSync(join(dir, 'nope'), shim('broken'));
  symlinkSync(join(dir, 'other'), shim('wrong'));
  writeFileSync(shim('file'), 'x');
  t.equal(inspectShim(shim('ok'), self).status, 'ok');
  t.equal(inspectShim(self, self).status, 'ok', 'the binary itself installed there');
  t.equal(inspectShim(shim('missing'), self).status, 'missing');
  t.equal(inspectShim(shim('broken'), self).status, 'broken');
  t.equal(inspectShim(shim('wrong'), self).status, 'wrong_target');
  t.equal(inspectShim(shim('file'), self).status, 'not_symlink');
});

t.test('a command group: subcommand help, and usage errors for missing or unknown ones', async (t) => {
  const group = commandGroup({
    name: 'thing',
    summary: 'things',
    usage: 'mcp-bash thing a|b',
    subcommands: [
      {
        name: 'a',
        summary: 'does a',
        usage: 'mcp-bash thing a [--x]',
        details: 'Options: --x',
        options: { boolean: ['x'] },
        run: async () => 3,
      },
    ],
  });
  t.match(group.details, /Subcommands:\n {2}a {2}does a/);
  t.match(group.helpFor?.(['a', '--help']), /^Usage: mcp-bash thing a \[--x\]\n\ndoes a\n\nOptions: --x/);
  t.equal(group.helpFor?.(['--help']), undefined, 'the group help otherwise');
  t.equal(await group.run(['a'], {} as CommandContext), 3);
  await t.rejects(group.run([], {} as CommandContext), UsageError);
  await t.rejects(group.run(['zzz'], {} as CommandContext), /unknown subcommand "zzz"/);
});

t.test('an option that takes a value does not take the next flag as it', async (t) => {
  const spec = { string: ['http'], boolean: ['stateless'] };
  t.throws(() => parseOptions(['--http', '--stateless'], spec, 'usage'), {
    message: 'option --http needs a value',
  });
  t.throws(() => parseOptions(['--http'], spec, 'usage'), { message: 'option --http needs a value' });
  t.equal(parseOptions(['--http', '8080', '--stateless'], spec, 'usage').string('http'), '8080');
  t.equal(parseOptions(['--http=-1'], spec, 'usage').string('http'), '-1', 'an explicit value is kept as given');
});

t.test('a value flag takes the next word as its value even when it starts with a single -', async (t) => {
  const spec = { string: ['args', 'timeout', 'name'], boolean: ['allow-self'], alias: { n: 'name' } };
  const parsed = parseOptions(['hello', '--allow-self', '--args', '-n', '--timeout', '-1'], spec, 'usage');
  t.equal(parsed.string('args'), '-n');
  t.equal(parsed.string('timeout'), '-1');
  t.same(parsed.positionals, ['hello']);
  t.equal(parseOptions(['-n', '-abc'], spec, 'usage').string('name'), '-abc', 'a short alias too');
  t.equal(parseOptions(['--args', '-'], spec, 'usage').string('args'), '-');
  t.equal(parseOptions(['--args=a=b'], spec, 'usage').string('args'), 'a=b', '--opt=value is unchanged');
  t.same(parseOptions(['--name', 'x', '--', '--args', '-n'], spec, 'usage').positionals, ['--args', '-n']);
  t.throws(() => parseOptions(['--args', '--x'], spec, 'usage'), { message: 'option --args needs a value' });
});

t.test('scaffolds refuse existing files, naming them in a sentence that agrees with their number', async (t) => {
  const dir = t.testdir({ one: '', two: '' });
  const display = (path: string) => path.slice(dir.length + 1);
  t.throws(() => refuseExisting([join(dir, 'one')], display), { message: 'one already exists' });
  t.throws(() => refuseExisting([join(dir, 'one'), join(dir, 'two'), join(dir, 'three')], display), {
    message: 'one, two already exist',
  });
  t.doesNotThrow(() => refuseExisting([join(dir, 'three')], display), 'nothing there: nothing refused');
});
