import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { isolatedEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

const outside0 = () => ({ code: -32603, message: 'Resource outside allowed roots' });

t.test('the built-in file provider: roots, traversal, symlink escapes, percent-encoded names', async (t) => {
  const project = fixtureProject('resources');
  const resources = join(project, 'resources');
  writeFileSync(join(project, 'secret.txt'), 'outside the roots');
  symlinkSync(join(project, 'secret.txt'), join(resources, 'escape.txt'));
  mkdirSync(join(project, 'elsewhere'));
  writeFileSync(join(project, 'elsewhere', 'inner.txt'), 'inner');
  symlinkSync(join(project, 'elsewhere'), join(resources, 'linked-dir'));
  writeFileSync(join(resources, 'My Notes #1.txt'), 'spaced\n');
  symlinkSync('notes.txt', join(resources, 'alias.txt'));
  mkdirSync(join(resources, 'docs', 'more'), { recursive: true });
  writeFileSync(join(resources, 'docs', 'more', 'deep.txt'), 'deep\n');
  symlinkSync('docs/more', join(resources, 'docs-link'));
  writeFileSync(join(resources, 'docs\\nested.txt'), 'not docs/nested.txt\n');
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => server.close());
  const read = (uri: string) => server.request('resources/read', { uri });

  const { resources: listed } = (await server.request('resources/list', { limit: 200 })).result as {
    resources: Array<{ name: string; uri: string }>;
  };
  t.notOk(
    listed.some((item) => item.name === 'escape' || item.name === 'inner'),
    'files whose real path is outside resources/ are not listed',
  );
  t.ok(
    listed.some((item) => item.name === 'notes'),
    'the rest is',
  );
  const warnings = server
    .notifications('notifications/message')
    .map((m) => String(m.params?.data))
    .join('\n');
  t.match(
    warnings,
    new RegExp(
      '2 file\\(s\\) reached through symbolic links lie outside the resources directory and are not listed ' +
        '\\(escape\\.txt, linked-dir\\/inner\\.txt\\)',
    ),
  );
  t.notOk(
    listed.some((item) => item.name === 'alias'),
    'a link to a file inside resources/ is not listed either: every read of it is refused (D280)',
  );
  t.match(warnings, /1 file\(s\) are symbolic links and are not listed \(alias\.txt\): the file provider/);
  t.match((await read(`file://${resources}/alias.txt`)).error, outside0(), 'its read is still refused');
  t.notOk(
    listed.some((item) => item.name === 'docs\\nested'),
    'a file with a backslash in its name is not listed: its URI would name docs/nested.txt',
  );
  t.equal(listed.filter((item) => item.uri === `file://${resources}/docs/nested.txt`).length, 1);
  t.match(warnings, /1 file\(s\) have a backslash in their path and are not listed \(docs\\nested\.txt\)/);
  const deep = listed.find((item) => item.uri === `file://${resources}/docs-link/deep.txt`);
  t.ok(deep, 'a file under a linked directory inside resources/ is listed');
  t.match((await read(deep?.uri ?? '')).result, { contents: [{ text: 'deep\n' }] }, 'and it reads');
  const spaced = listed.find((item) => item.name === 'My Notes #1');
  t.equal(spaced?.uri, `file://${resources}/My%20Notes%20%231.txt`, 'discovered URIs are percent-encoded');
  t.match((await read(spaced?.uri ?? '')).result, { contents: [{ text: 'spaced\n' }] }, 'and they resolve (D10)');

  const outside = { code: -32603, message: 'Resource outside allowed roots' };
  t.match((await read(`file://${resources}/../secret.txt`)).error, outside, '.. cannot leave the roots');
  t.match((await read(`file://${resources}/docs/../../secret.txt`)).error, outside);
  t.match((await read(`file://${resources}/%2E%2E/secret.txt`)).error, outside, 'nor can an encoded ..');
  t.match((await read(`file://${project}/secret.txt`)).error, outside);
  t.match((await read(`file://${resources}/escape.txt`)).error, outside, 'a symlink to a file outside is refused');
  t.match(
    (await read(`file://${resources}/linked-dir/inner.txt`)).error,
    outside,
    'a symlinked directory does not widen the roots',
  );
  t.match((await read(`file://${resources}/missing.txt`)).error, { code: -32002, message: 'Resource not found' });
  t.match((await read(`file://${resources}/docs`)).error, { code: -32002 }, 'a directory is not a resource');
  t.match(
    (await read('file://./resources/notes.txt')).result,
    { contents: [{ text: 'hello notes\n\n' }] },
    'relative file URIs start at the project root',
  );
});

t.test('MCP_RESOURCES_ROOTS widens or narrows what the file provider serves', async (t) => {
  const project = fixtureProject('resources');
  const server = await startInProcess({
    projectRoot: project,
    env: isolatedEnv({ MCP_RESOURCES_ROOTS: 'server.d' }),
  });
  t.teardown(() => server.close());
  t.match((await server.request('resources/read', { uri: `file://${project}/server.d/server.meta.json` })).result, {
    contents: [{ text: /resources-fixture/ }],
  });
  t.match((await server.request('resources/read', { name: 'notes' })).error, {
    code: -32603,
    message: 'Resource outside allowed roots',
  });
});

t.test('a project provider overrides the built-in provider of the same name', async (t) => {
  const project = fixtureProject('resources');
  const script = join(project, 'providers', 'echo.sh');
  writeFileSync(script, '#!/usr/bin/env bash\nprintf "project echo: %s" "$1"\n');
  chmodSync(script, 0o755);
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => server.close());
  t.match((await server.request('resources/read', { name: 'echo-hello' })).result, {
    contents: [{ text: 'project echo: echo://hello%20world' }],
  });
  writeFileSync(script, 'printf "no shebang, not executable: %s" "$1"\n');
  chmodSync(script, 0o644);
  t.match(
    (await server.request('resources/read', { name: 'echo-hello' })).result,
    { contents: [{ text: 'no shebang, not executable: echo://hello%20world' }] },
    'run through bash',
  );
});

t.test('the official SDK client lists resources and templates and reads text and blobs', async (t) => {
  const project = fixtureProject('resources');
  const { client } = await connectSdkClient({ env: sdkEnv(isolatedEnv({ MCPBASH_PROJECT_ROOT: project })) });
  t.teardown(() => client.close());
  const { resources } = await client.listResources();
  t.ok(resources.some((item) => item.name === 'readme-doc' && item.title === 'The Readme'));
  const { resourceTemplates } = await client.listResourceTemplates();
  t.same(
    resourceTemplates.map((item) => item.name),
    ['files', 'item'],
  );
  const text = await client.readResource({ uri: 'myapi://status' });
  t.same(text.contents, [{ uri: 'myapi://status', mimeType: 'application/json', text: '{"ok":true}' }]);
  const blob = await client.readResource({ uri: `file://${project}/resources/image.png` });
  t.match(blob.contents, [{ mimeType: 'image/png', blob: 'iVBORw0KGgoAAGJpbmFyeQ==' }]);
  await t.rejects(client.readResource({ uri: 'myapi://exit/3' }), { code: -32002 });
});
