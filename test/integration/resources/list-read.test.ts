import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import type { McpSession } from '../../helpers/mcp-session.js';
import { isolatedEnv } from '../../helpers/run-binary.js';

type Listed = { resources: Array<Record<string, unknown>>; nextCursor?: string; _meta: Record<string, unknown> };

/** Stops the server when the test ends. */
interface Owner {
  teardown(fn: () => unknown): void;
}

async function serve(
  t: Owner,
  env: NodeJS.ProcessEnv = {},
  protocolVersion?: string,
): Promise<{ server: McpSession; project: string }> {
  const project = fixtureProject('resources');
  const server = await startInProcess({
    projectRoot: project,
    env: isolatedEnv(env),
    ...(protocolVersion ? { protocolVersion } : {}),
  });
  t.teardown(() => server.close());
  return { server, project };
}

/** Warnings the server logged to the client (they precede the response on stdout). */
const logged = (server: McpSession) =>
  server
    .notifications('notifications/message')
    .map((m) => String(m.params?.data))
    .join('\n');

const read = (server: McpSession, params: Record<string, unknown>) => server.request('resources/read', params);

t.test('resources/list: discovered resources with spec fields only, sorted by name', async (t) => {
  const { server, project } = await serve(t);
  const { result } = await server.request('resources/list', { limit: 200 });
  const listed = result as Listed;
  t.same(
    listed.resources.map((item) => item.name),
    ['echo-hello', 'icon', 'image', 'inline-res', 'nested', 'notes', 'readme-doc', 'status'],
  );
  t.equal(listed._meta['mcpbash/total'], 8);
  t.notOk('nextCursor' in listed, 'no nextCursor on the last page');
  const byName = new Map(listed.resources.map((item) => [item.name, item]));
  const sizeOf = (file: string) => statSync(join(project, 'resources', file)).size;
  t.same(byName.get('notes'), {
    uri: `file://${join(project, 'resources', 'notes.txt')}`,
    name: 'notes',
    mimeType: 'text/plain',
    size: sizeOf('notes.txt'),
  });
  t.same(
    byName.get('inline-res'),
    {
      uri: `file://${join(project, 'resources', 'settings.conf')}`,
      name: 'inline-res',
      description: 'from the inline header',
      mimeType: 'text/plain',
      size: sizeOf('settings.conf'),
    },
    'a type that cannot be inferred is text/plain (1.x); a file resource has its size',
  );
  t.same(
    byName.get('echo-hello'),
    { uri: 'echo://hello%20world', name: 'echo-hello', mimeType: 'text/plain' },
    'also for a URI without an extension; a provider URI has no size unless its metadata gives one',
  );
  t.same(byName.get('status'), {
    uri: 'myapi://status',
    name: 'status',
    description: "Served by the project's myapi provider",
    mimeType: 'application/json',
    size: 11,
  });
  t.match(byName.get('readme-doc'), {
    name: 'readme-doc',
    title: 'The Readme',
    description: 'Project readme',
    mimeType: 'text/markdown',
    annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-01T00:00:00Z' },
    icons: [{ src: /^data:image\/svg\+xml;base64,/, mimeType: 'image/svg+xml' }],
    _meta: { team: 'docs' },
  });
  for (const item of listed.resources)
    t.notOk('path' in item || 'provider' in item, `${String(item.name)}: no internal fields (D16)`);
  t.match(logged(server), /both\.meta\.json: has both uri and uriTemplate; skipped/);
  t.notOk(
    listed.resources.some((item) => String(item.uri).includes('.hidden')),
    'hidden files are skipped',
  );
  t.notOk(
    listed.resources.some((item) => String(item.uri).includes('completion')),
    'completion scripts are not resources',
  );
});

t.test('a listed text/plain default does not make binary content text', async (t) => {
  const project = fixtureProject('resources');
  writeFileSync(join(project, 'resources', 'blob.dat'), Buffer.from([0x00, 0x01, 0xff, 0x00]));
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => server.close());
  const listed = (await server.request('resources/list', { limit: 200 })).result as Listed;
  t.match(
    listed.resources.find((item) => item.name === 'blob'),
    { mimeType: 'text/plain' },
  );
  t.same((await read(server, { name: 'blob' })).result, {
    contents: [
      {
        uri: `file://${join(project, 'resources', 'blob.dat')}`,
        mimeType: 'application/octet-stream',
        blob: 'AAH/AA==',
      },
    ],
  });
});

t.test('resources/list pages with limit and cursor; a stale or foreign cursor is invalid', async (t) => {
  const { server } = await serve(t);
  const first = (await server.request('resources/list', { limit: 3 })).result as Listed;
  t.equal(first.resources.length, 3);
  t.type(first.nextCursor, 'string');
  const second = (await server.request('resources/list', { limit: 3, cursor: first.nextCursor })).result as Listed;
  t.same(
    second.resources.map((item) => item.name),
    ['inline-res', 'nested', 'notes'],
  );
  const templates = (await server.request('resources/templates/list', { limit: 1 })).result as { nextCursor: string };
  t.match((await server.request('resources/list', { cursor: templates.nextCursor })).error, {
    code: -32602,
    message: 'Invalid cursor',
  });
  t.match((await server.request('resources/list', { cursor: 'garbage' })).error, {
    code: -32602,
    message: 'Invalid cursor',
  });
});

t.test('resources/templates/list: discovered templates; invalid ones and name collisions skipped', async (t) => {
  const { server } = await serve(t, {}, '2025-03-26');
  const { result } = await server.request('resources/templates/list');
  t.same(
    result,
    {
      resourceTemplates: [
        { uriTemplate: 'file:///{+path}', name: 'files', description: 'Any file under resources/' },
        { uriTemplate: 'myapi://items/{id}', name: 'item', mimeType: 'text/x-item' },
      ],
      _meta: { 'mcpbash/total': 2 },
    },
    'no title before 2025-06-18 (D21)',
  );
  t.match(logged(server), /static\.meta\.json: uriTemplate must be a string with at least one \{variable\}/);
  t.match(logged(server), /resource template "notes" has the name of a resource; skipped/);
  const resources = (await server.request('resources/list', { limit: 200 })).result as Listed;
  t.notOk(
    resources.resources.some((item) => 'title' in item),
    'no resource titles before 2025-06-18',
  );
});

t.test('resources/read: by name or URI, through built-in and project providers, bytes exact', async (t) => {
  const { server, project } = await serve(t);
  const notes = await read(server, { name: 'notes' });
  t.same(
    notes.result,
    {
      contents: [
        { uri: `file://${join(project, 'resources', 'notes.txt')}`, mimeType: 'text/plain', text: 'hello notes\n\n' },
      ],
    },
    'trailing newlines kept (D23)',
  );
  t.same(
    (await read(server, { uri: `file://${join(project, 'resources', 'notes.txt')}` })).result,
    notes.result,
    'by URI',
  );
  t.match(
    (await read(server, { uri: 'echo://hello%20world' })).result,
    { contents: [{ uri: 'echo://hello%20world', text: 'hello world' }] },
    'the URI reaches the provider verbatim (D10)',
  );
  t.same((await read(server, { name: 'status' })).result, {
    contents: [{ uri: 'myapi://status', mimeType: 'application/json', text: '{"ok":true}' }],
  });
  t.same(
    (await read(server, { uri: 'myapi://items/42' })).result,
    { contents: [{ uri: 'myapi://items/42', mimeType: 'text/x-item', text: 'item 42' }] },
    'an expanded template: MIME type from the template',
  );
  t.same(
    (await read(server, { uri: 'myapi://args' })).result,
    { contents: [{ uri: 'myapi://args', mimeType: 'text/plain', text: '1|myapi://args|' }] },
    'unregistered URIs go to the provider of their scheme',
  );
  t.same((await read(server, { uri: 'myapi://trailing' })).result, {
    contents: [{ uri: 'myapi://trailing', mimeType: 'text/plain', text: 'line\n\n\n' }],
  });
  t.same((await read(server, { name: 'image' })).result, {
    contents: [
      {
        uri: `file://${join(project, 'resources', 'image.png')}`,
        mimeType: 'image/png',
        blob: 'iVBORw0KGgoAAGJpbmFyeQ==',
      },
    ],
  });
  t.same((await read(server, { uri: `file://${join(project, 'resources', 'settings.conf')}` })).result, {
    contents: [
      {
        uri: `file://${join(project, 'resources', 'settings.conf')}`,
        mimeType: 'text/plain',
        text: '# mcp: {"name":"inline-res","description":"from the inline header"}\nkey=value\n',
      },
    ],
  });
  t.same(
    (await read(server, { uri: 'myapi://binary' })).result,
    {
      contents: [
        {
          uri: 'myapi://binary',
          mimeType: 'application/octet-stream',
          blob: Buffer.from('GIF89a\x00\x01\x02\xff', 'latin1').toString('base64'),
        },
      ],
    },
    'NUL bytes make a blob',
  );
});

t.test('resources/read failures: params, unknown names, every provider exit code', async (t) => {
  const { server } = await serve(t);
  t.match((await read(server, {})).error, { code: -32602, message: 'Resource name or uri required' });
  t.match((await read(server, { uri: 5 })).error, { code: -32602, message: 'uri must be a string' });
  t.match((await read(server, { name: 'nope' })).error, { code: -32002, message: 'Resource not found' });
  t.match(
    (await read(server, { uri: 'file:///etc/passwd\u0000.txt' })).error,
    { code: -32602, message: /contains a NUL character/ },
    'a NUL byte is a bad request',
  );
  const cases: Array<[string, number, string | RegExp]> = [
    ['myapi://exit/2', -32603, 'Resource outside allowed roots'],
    ['myapi://exit/3', -32002, 'Resource not found'],
    ['myapi://quiet/4', -32602, 'Invalid resource specification'],
    ['myapi://exit/5', -32603, 'upstream said 502'],
    ['myapi://quiet/5', -32603, 'Resource fetch failed'],
    ['myapi://quiet/6', -32603, 'Resource exceeded size limit'],
    ['myapi://exit/7', -32603, 'redirect:https://example.com/elsewhere'],
    ['myapi://quiet/9', -32603, 'Resource provider failed'],
    ['nosuch://x', -32603, 'Unsupported resource provider'],
    ['http://example.com/', -32603, 'Unsupported resource provider'],
  ];
  for (const [uri, code, message] of cases) {
    const { error } = await read(server, { uri });
    t.match(error, { code, message }, uri);
  }
  t.match(
    (await read(server, { uri: 'myapi://exit/3' })).error?.data,
    { provider: 'myapi', exitCode: 3, detail: 'no such thing' },
    'stderr kept in data',
  );
});

t.test('MCPBASH_MAX_RESOURCE_BYTES: a larger payload is an error, never a partial one', async (t) => {
  const { server } = await serve(t, { MCPBASH_MAX_RESOURCE_BYTES: '1000' });
  t.match((await read(server, { uri: 'myapi://bytes/1000' })).result, { contents: [{ text: 'x'.repeat(1000) }] });
  t.match((await read(server, { uri: 'myapi://bytes/1001' })).error, {
    code: -32603,
    message: 'Resource exceeded MCPBASH_MAX_RESOURCE_BYTES (1000 bytes)',
  });
});

t.test('a provider that runs too long is stopped (MCPBASH_DEFAULT_TOOL_TIMEOUT)', async (t) => {
  const { server } = await serve(t, { MCPBASH_DEFAULT_TOOL_TIMEOUT: '1' });
  const started = Date.now();
  t.match((await read(server, { uri: 'myapi://slow' })).error, {
    code: -32603,
    message: 'Resource provider myapi timed out after 1s',
  });
  t.ok(Date.now() - started < 5000);
});

// The reads of each test run at once: every one waits for a timeout or a sleeping provider.
t.test('params.timeoutSecs (a positive number) overrides the default provider timeout of resources/read', async (t) => {
  const { server } = await serve(t, { MCPBASH_DEFAULT_TOOL_TIMEOUT: '1' });
  const { server: patient } = await serve(t);
  const ignoredValues = [0, -3, '5', null];
  const started = Date.now();
  const [byDefault, longer, shorter, ...ignored] = await Promise.all([
    read(server, { uri: 'myapi://sleep/2' }),
    read(server, { uri: 'myapi://sleep/2', timeoutSecs: 5 }),
    read(patient, { uri: 'myapi://slow', timeoutSecs: 1 }).then((reply) => ({ reply, after: Date.now() - started })),
    ...ignoredValues.map((timeoutSecs) => read(server, { uri: 'myapi://sleep/2', timeoutSecs })),
  ]);
  t.match(byDefault.error, { message: 'Resource provider myapi timed out after 1s' }, 'the default');
  t.match(longer.result, { contents: [{ text: 'slept 2' }] }, 'longer than the default');
  for (const [index, value] of ignoredValues.entries()) {
    t.match(
      ignored[index]?.error,
      { message: /timed out after 1s/ },
      `timeoutSecs ${JSON.stringify(value)} is ignored`,
    );
  }
  t.match(
    shorter.reply.error,
    { code: -32603, message: 'Resource provider myapi timed out after 1s' },
    'shorter than the default (30 s)',
  );
  t.ok(shorter.after < 5000, `stopped after ${shorter.after} ms`);
});

t.test(
  'params.timeoutSecs overrides MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT for the first read of resources/subscribe',
  async (t) => {
    const { server } = await serve(t, {
      MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT: '1',
      MCPBASH_RESOURCES_POLL_INTERVAL_SECS: '0',
    });
    const { server: patient } = await serve(t, { MCPBASH_RESOURCES_POLL_INTERVAL_SECS: '0' });
    const started = Date.now();
    const [byDefault, longer, shorter] = await Promise.all([
      server.request('resources/subscribe', { uri: 'myapi://sleep/2' }),
      server.request('resources/subscribe', { uri: 'myapi://sleep/2', timeoutSecs: 5 }),
      patient
        .request('resources/subscribe', { uri: 'myapi://slow', timeoutSecs: 1 })
        .then((reply) => ({ reply, after: Date.now() - started })),
    ]);
    t.match(byDefault.error, { message: 'Resource provider myapi timed out after 1s' }, 'the default');
    t.same(longer.error, undefined, 'longer than the default');
    t.match(
      shorter.reply.error,
      { message: 'Resource provider myapi timed out after 1s' },
      'shorter than the default (120 s)',
    );
    t.ok(shorter.after < 5000, `stopped after ${shorter.after} ms`);
  },
);

t.test('providers get the curated environment of MCPBASH_PROVIDER_ENV_MODE', async (t) => {
  const envOf = async (env: NodeJS.ProcessEnv) => {
    const { server, project } = await serve(t, { SECRET_TOKEN: 's3cret', EXTRA_ONE: 'one', MCP_CUSTOM: 'c', ...env });
    const response = await read(server, { uri: 'myapi://env' });
    const text = (response.result as { contents: Array<{ text: string }> } | undefined)?.contents[0]?.text ?? '';
    return {
      response,
      project,
      vars: new Map(
        text
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      ),
    };
  };
  const isolate = await envOf({});
  t.notOk(isolate.vars.has('SECRET_TOKEN'), 'isolate: other variables are not passed');
  t.equal(isolate.vars.get('MCP_CUSTOM'), 'c', 'MCP_* passes');
  t.equal(isolate.vars.get('MCPBASH_PROJECT_ROOT'), isolate.project);
  t.equal(
    isolate.vars.get('MCP_RESOURCES_ROOTS'),
    join(isolate.project, 'resources'),
    'resource roots default to the resources directory',
  );
  t.equal(isolate.vars.get('MCPBASH_PROVIDERS_DIR'), join(isolate.project, 'providers'));
  // sdk/ of the extracted framework files; sdk-sh/ of a checkout (MCPBASH_HOME, in-process).
  t.match(isolate.vars.get('MCP_SDK'), /\/sdk(-sh)?$/, 'MCP_SDK for the shared URL policy');
  t.ok(isolate.vars.has('MCPBASH_HOME'));
  const allowlist = await envOf({
    MCPBASH_PROVIDER_ENV_MODE: 'allowlist',
    MCPBASH_PROVIDER_ENV_ALLOWLIST: 'EXTRA_ONE',
    MCP_RESOURCES_ROOTS: 'data:/abs',
  });
  t.equal(allowlist.vars.get('EXTRA_ONE'), 'one');
  t.notOk(allowlist.vars.has('SECRET_TOKEN'));
  t.equal(
    allowlist.vars.get('MCP_RESOURCES_ROOTS'),
    `${join(allowlist.project, 'data')}:/abs`,
    'relative roots are taken from the project root (D14)',
  );
  const refused = await envOf({ MCPBASH_PROVIDER_ENV_MODE: 'inherit' });
  t.match(
    refused.response.error,
    { code: -32603, message: /misconfigured.*set MCPBASH_PROVIDER_ENV_INHERIT_ALLOW=true/ },
    "inherit without the confirmation is a server error, not the request's",
  );
  const inherit = await envOf({ MCPBASH_PROVIDER_ENV_MODE: 'inherit', MCPBASH_PROVIDER_ENV_INHERIT_ALLOW: 'true' });
  t.equal(inherit.vars.get('SECRET_TOKEN'), 's3cret');
});

t.test('annotations.audience keeps only MCP roles; other values are dropped with a warning (D127)', async (t) => {
  const project = fixtureProject('resources');
  writeFileSync(join(project, 'resources', 'audience.txt'), 'for people and models\n');
  writeFileSync(
    join(project, 'resources', 'audience.meta.json'),
    JSON.stringify({ name: 'audience', annotations: { audience: ['user', 'model', 'assistant'] } }),
  );
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => server.close());
  const listed = (await server.request('resources/list', { limit: 200 })).result as Listed;
  t.same(listed.resources.find((item) => item.name === 'audience')?.annotations, { audience: ['user', 'assistant'] });
  await server.waitForStderr(
    /audience\.txt: annotations\.audience may only hold "user" and "assistant"; other entries dropped/,
  );
});
