import t from 'tap';
import { IgnoreRules } from '../../../../src/distribution/bundle/ignore-rules.js';

const left = (rules: IgnoreRules, path: string, isDirectory = false) => rules.match(path, isDirectory) !== undefined;

t.test('the defaults: .env*, logs, bundles, keys; at any depth', async (t) => {
  const rules = new IgnoreRules(undefined);
  for (const path of ['.env', 'tools/hello/.env', 'tools/hello/.env.local', 'lib/debug.log', 'old-1.0.0.mcpb'])
    t.ok(left(rules, path), path);
  for (const path of ['tools/hello/id_rsa', 'server.d/cert.pem', 'tools/a/.npmrc']) t.ok(left(rules, path), path);
  for (const path of ['tools/hello/tool.sh', 'tools/hello/id_rsa.pub', 'lib/env.sh', 'resources/logbook.txt'])
    t.notOk(left(rules, path), path);
  t.same(rules.match('tools/hello/.env', false), { pattern: '.env*', source: 'the default exclusions' });
});

t.test('.mcpbignore: gitignore forms, the last match wins, ! takes a default back', async (t) => {
  const rules = new IgnoreRules(
    [
      '# comment',
      '',
      'fixtures/',
      '/lib/secret.sh',
      'tools/*/cache',
      '**/tmp/**',
      'data-?.csv',
      'draft[0-9].md',
      '*.bak',
      '!keep.bak',
      '!resources/ca.pem',
      '\\#literal',
    ].join('\n'),
  );
  t.ok(left(rules, 'tools/a/fixtures', true), 'a dir pattern matches a dir at any depth');
  t.notOk(left(rules, 'tools/a/fixtures', false), '... and not a file');
  t.ok(left(rules, 'lib/secret.sh'), 'anchored');
  t.notOk(left(rules, 'tools/lib/secret.sh'), 'anchored: only at the root');
  t.ok(left(rules, 'tools/x/cache', true));
  t.notOk(left(rules, 'tools/x/y/cache', true), '* does not cross /');
  t.ok(left(rules, 'tools/a/tmp/b/c.txt'), '**/ and /**');
  t.ok(left(rules, 'resources/data-1.csv') && !left(rules, 'resources/data-10.csv'), '?');
  t.ok(left(rules, 'prompts/draft3.md') && !left(rules, 'prompts/draftx.md'), '[0-9]');
  t.ok(left(rules, 'a.bak') && !left(rules, 'tools/keep.bak'), '! re-includes');
  t.notOk(left(rules, 'resources/ca.pem'), 'a default taken back');
  t.ok(left(rules, 'server.d/other.pem'), 'the default still applies elsewhere');
  t.ok(left(rules, 'resources/#literal'), '\\# is a literal #');
  t.same(rules.match('lib/secret.sh', false), { pattern: '/lib/secret.sh', source: '.mcpbignore line 4' });
});
