import { chmodSync, cpSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import type { McpSession } from '../../helpers/mcp-session.js';
import { repoRoot } from '../../helpers/paths.js';
import { isolatedEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

/**
 * What the file provider may read (seed 004: it "enforces roots (MCPBASH_ROOTS,
 * config/roots.json, or client roots)"): MCP_RESOURCES_ROOTS when the operator set it;
 * otherwise resources/ plus the session's configured roots, never the implicit project root.
 */

const outside = { code: -32603, message: 'Resource outside allowed roots' };

/** A directory outside the project holding note.txt. */
function clientDir(): string {
  const dir = realpathSync(scratchDir('mcpbash-client-root-'));
  writeFileSync(join(dir, 'note.txt'), 'from a client root\n');
  return dir;
}

/** Answers the server's first roots/list with `dirs`. */
async function answerRoots(server: McpSession, dirs: string[]): Promise<void> {
  const ask = await server.waitFor((m) => m.method === 'roots/list');
  server.send({ jsonrpc: '2.0', id: ask.id, result: { roots: dirs.map((dir) => ({ uri: pathToFileURL(dir).href })) } });
}

t.test('a file under a client root outside resources/ is readable; resources/ still is', async (t) => {
  const project = fixtureProject('resources');
  const dir = clientDir();
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv(), capabilities: { roots: {} } });
  t.teardown(() => server.close());
  // Asked before the client answers: the read waits for the roots, like a tool call.
  const read = server.request('resources/read', { uri: `file://${dir}/note.txt` });
  await answerRoots(server, [dir]);
  t.match((await read).result, { contents: [{ text: 'from a client root\n' }] });
  t.match((await server.request('resources/read', { name: 'notes' })).result, {
    contents: [{ text: 'hello notes\n\n' }],
  });
});

t.test('without configured roots only resources/ is served, not the implicit project root', async (t) => {
  const project = fixtureProject('resources');
  const dir = clientDir();
  writeFileSync(join(project, 'beside.txt'), 'in the project, outside resources/');
  const silent = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => silent.close());
  t.match(
    (await silent.request('resources/read', { uri: `file://${dir}/note.txt` })).error,
    outside,
    'a client that declared no roots',
  );
  t.match(
    (await silent.request('resources/read', { uri: `file://${project}/beside.txt` })).error,
    outside,
    'the project root is no root here',
  );
  t.match((await silent.request('resources/read', { name: 'notes' })).result, {
    contents: [{ text: 'hello notes\n\n' }],
  });

  const empty = await startInProcess({ projectRoot: project, env: isolatedEnv(), capabilities: { roots: {} } });
  t.teardown(() => empty.close());
  await answerRoots(empty, []);
  t.match(
    (await empty.request('resources/read', { uri: `file://${dir}/note.txt` })).error,
    outside,
    'a client that answered no roots',
  );
});

t.test('MCPBASH_ROOTS and config/roots.json count as configured roots', async (t) => {
  const project = fixtureProject('resources');
  const dir = clientDir();
  const byEnv = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_ROOTS: dir }) });
  t.teardown(() => byEnv.close());
  t.match((await byEnv.request('resources/read', { uri: `file://${dir}/note.txt` })).result, {
    contents: [{ text: 'from a client root\n' }],
  });

  mkdirSync(join(project, 'config'));
  writeFileSync(join(project, 'config', 'roots.json'), JSON.stringify({ roots: [{ path: dir, name: 'Client' }] }));
  const byFile = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => byFile.close());
  t.match((await byFile.request('resources/read', { uri: `file://${dir}/note.txt` })).result, {
    contents: [{ text: 'from a client root\n' }],
  });
});

t.test("MCP_RESOURCES_ROOTS is the operator's scope: it replaces resources/ and the session roots", async (t) => {
  const project = fixtureProject('resources');
  const dir = clientDir();
  const server = await startInProcess({
    projectRoot: project,
    env: isolatedEnv({ MCP_RESOURCES_ROOTS: 'resources/docs' }),
    capabilities: { roots: {} },
  });
  t.teardown(() => server.close());
  await answerRoots(server, [dir]);
  t.match(
    (await server.request('resources/read', { uri: `file://${dir}/note.txt` })).error,
    outside,
    'the client root is not added',
  );
  t.match((await server.request('resources/read', { name: 'notes' })).error, outside, 'nor is resources/');
  t.match((await server.request('resources/read', { uri: `file://${project}/resources/docs/nested.txt` })).result, {
    contents: [{ uri: /nested\.txt$/ }],
  });
});

t.test('no resources directory and no roots: the file provider refuses everything (fails closed)', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => server.close());
  const refused = await server.request('resources/read', { uri: `file://${project}/data/note.txt` });
  t.match(refused.error, { ...outside, data: { detail: /no resource roots/ } });
  const scoped = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_ROOTS: 'data' }) });
  t.teardown(() => scoped.close());
  t.match(
    (await scoped.request('resources/read', { uri: `file://${project}/data/note.txt` })).result,
    { contents: [{ uri: /note\.txt$/ }] },
    'a configured root opens it',
  );
});

t.test("file:// reads are served in-process, not by the framework's file.sh", async (t) => {
  const root = t.testdir({
    'server.d': { 'server.meta.json': '{"name":"in-process"}' },
    resources: { 'note.txt': 'served in-process\n' },
  });
  // A framework home whose file.sh would answer differently: the server must not run it.
  const home = scratchDir('mcpbash-home-');
  cpSync(join(repoRoot, 'sdk-sh'), join(home, 'sdk'), { recursive: true });
  cpSync(join(repoRoot, 'assets', 'hooks'), join(home, 'hooks'), { recursive: true });
  cpSync(join(repoRoot, 'assets', 'providers'), join(home, 'providers'), { recursive: true });
  writeFileSync(join(home, 'providers', 'file.sh'), '#!/usr/bin/env bash\nprintf "from the script"\n');
  const server = await startInProcess({ projectRoot: root, env: isolatedEnv({ MCPBASH_HOME: home }) });
  t.teardown(() => server.close());
  const uri = `file://${realpathSync(root)}/resources/note.txt`;
  const read = await server.request('resources/read', { uri });
  t.match(read.result, { contents: [{ uri, text: 'served in-process\n' }] });
});

t.test("a project's own providers/file.sh still serves file:// reads", async (t) => {
  const root = t.testdir({
    'server.d': { 'server.meta.json': '{"name":"own-file-provider"}' },
    providers: { 'file.sh': '#!/usr/bin/env bash\nprintf "from the project provider"\n' },
    resources: { 'note.txt': 'not this' },
  });
  chmodSync(join(root, 'providers', 'file.sh'), 0o755);
  const server = await startInProcess({ projectRoot: root, env: isolatedEnv() });
  t.teardown(() => server.close());
  const read = await server.request('resources/read', { uri: `file://${realpathSync(root)}/resources/note.txt` });
  t.match(read.result, { contents: [{ text: 'from the project provider' }] });
});

t.test("a project provider that runs the framework's file.sh gets the binary's rules", async (t) => {
  // A 1.x pattern: a provider of its own that hands file:// URIs on to the built-in one.
  const root = t.testdir({
    'server.d': { 'server.meta.json': '{"name":"chained-file-provider"}' },
    providers: {
      'notes.sh': '#!/usr/bin/env bash\nexec "${MCPBASH_HOME}/providers/file.sh" "file://./resources/${1#notes://}"\n',
    },
    resources: {
      'note.txt': 'through file.sh\n',
      'notes.meta.json': '{"name":"n","uri":"notes://note.txt","provider":"notes"}',
    },
  });
  chmodSync(join(root, 'providers', 'notes.sh'), 0o755);
  const server = await startInitialized({ projectRoot: root, env: isolatedEnv() });
  t.teardown(() => server.close());
  const read = await server.request('resources/read', { uri: 'notes://note.txt' });
  t.match(read.result, { contents: [{ text: 'through file.sh\n' }] });
  const outside = await server.request('resources/read', { uri: 'notes://../server.d/server.meta.json' });
  t.match(outside.error, { code: -32603, message: 'Resource outside allowed roots' }, 'the same roots');
});

t.test('a file whose name is not UTF-8 is read as named: a path is bytes, not text', async (t) => {
  const project = fixtureProject('resources');
  const resources = realpathSync(join(project, 'resources'));
  // caf\xe9.txt: Latin-1, an invalid UTF-8 byte in the name.
  writeFileSync(
    Buffer.concat([Buffer.from(`${resources}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]),
    'latin-1\n',
  );
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => server.close());
  const read = await server.request('resources/read', { uri: `file://${resources}/caf%E9.txt` });
  t.match(read.result, { contents: [{ text: 'latin-1\n' }] });
});
