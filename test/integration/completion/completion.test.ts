import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import type { McpSession } from '../../helpers/mcp-session.js';
import { isolatedEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

interface Owner {
  teardown(fn: () => unknown): void;
}

type Completion = { values: string[]; hasMore: boolean; nextCursor?: string };

async function serve(t: Owner, project = fixtureProject('prompts'), env: NodeJS.ProcessEnv = {}): Promise<McpSession> {
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv(env) });
  t.teardown(() => server.close());
  return server;
}

function complete(server: McpSession, name: string, value: string, extra: Record<string, unknown> = {}) {
  return server.request('completion/complete', {
    ref: { type: 'ref/prompt', name },
    argument: { name: 'arg', value },
    ...extra,
  });
}

const completion = (response: { result?: unknown }) => (response.result as { completion: Completion }).completion;

function withRegistrations(entries: unknown[]): string {
  const project = fixtureProject('prompts');
  writeFileSync(join(project, 'server.d', 'register.json'), JSON.stringify({ version: 1, completions: entries }));
  return project;
}

t.test('the built-in generator pages with cursors', async (t) => {
  const server = await serve(t);
  t.same(completion(await complete(server, 'unknown', ' q ')), {
    values: ['q', 'q snippet', 'q example'],
    hasMore: false,
  });
  const first = completion(await complete(server, 'unknown', 'q', { limit: 2 }));
  t.same(first.values, ['q', 'q snippet']);
  t.equal(first.hasMore, true);
  t.type(first.nextCursor, 'string');
  t.same(completion(await complete(server, 'unknown', 'q', { limit: 2, cursor: first.nextCursor })), {
    values: ['q example'],
    hasMore: false,
  });
  t.same(
    completion(await complete(server, 'unknown', '')).values,
    ['unknown', 'unknown snippet', 'unknown example'],
    'no value: the name is the base',
  );
  t.match(
    (await complete(server, 'other', 'q', { cursor: first.nextCursor })).error,
    { code: -32602, message: 'Invalid cursor' },
    'a cursor of another name',
  );
  t.match(
    (await complete(server, 'unknown', 'qu', { limit: 2, cursor: first.nextCursor })).error,
    { code: -32602, message: 'Invalid cursor' },
    'a cursor issued before the value changed (1.x §8.3)',
  );
  t.match((await complete(server, 'unknown', 'q', { cursor: 'not-a-cursor' })).error, {
    code: -32602,
    message: 'Invalid cursor',
  });
});

t.test('request validation', async (t) => {
  const server = await serve(t);
  const call = (params: unknown) => server.request('completion/complete', params);
  t.match((await call({ argument: { name: 'a' } })).error, { code: -32602, message: 'Completion ref is required' });
  t.match((await call({ ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a' } })).error, {
    code: -32602,
    message: 'Completion ref is invalid',
  });
  t.match((await call({ ref: { type: 'ref/prompt' }, argument: { name: 'a' } })).error, {
    code: -32602,
    message: 'Completion ref is invalid',
  });
  t.match((await call({ ref: { type: 'ref/resource', uri: '' }, argument: { name: 'a' } })).error, {
    code: -32602,
    message: 'Completion ref is invalid',
  });
  t.match((await call({ ref: { type: 'ref/prompt', name: 'greet' } })).error, {
    code: -32602,
    message: 'Completion argument name is required',
  });
});

t.test('a script beside the prompt: limit (default 5, at most 100), hasMore, next pages', async (t) => {
  const server = await serve(t);
  const first = completion(await complete(server, 'greet', 'a'));
  t.same(first.values, ['name-0', 'name-1', 'name-2', 'name-3', 'name-4']);
  t.equal(first.hasMore, true);
  t.same(
    completion(await complete(server, 'greet', 'a', { cursor: first.nextCursor })).values,
    ['name-5', 'name-6', 'name-7', 'name-8', 'name-9'],
    'the script got the offset',
  );
  const capped = completion(await complete(server, 'greet', 'a', { limit: 500 }));
  t.equal(capped.values.length, 100, 'never more than 100 values');
  t.equal(capped.values[99], 'name-99');
});

t.test('register.json completions: paging by the script, its environment, its own cursor', async (t) => {
  const server = await serve(
    t,
    withRegistrations([
      { name: 'colors', path: 'completions/colors.sh', timeoutSecs: 5 },
      { name: 'paged', path: 'completions/paged.sh' },
    ]),
    { SECRET_TOKEN: 'x' },
  );
  const first = completion(await complete(server, 'colors', 'c', { limit: 3 }));
  t.same(first.values, ['red', 'orange', 'yellow']);
  const second = completion(await complete(server, 'colors', 'c', { limit: 3, cursor: first.nextCursor }));
  t.same(second.values, ['green', 'blue', 'indigo']);
  t.same(completion(await complete(server, 'colors', 'c', { limit: 3, cursor: second.nextCursor })), {
    values: ['violet'],
    hasMore: false,
  });
  t.same(
    completion(await complete(server, 'colors', 'env')).values,
    ['name=colors', 'limit=5', 'offset=0', 'hash=64', 'json=set'],
    'cut to the limit',
  );
  t.same(
    completion(await complete(server, 'colors', 'env', { limit: 10 })).values.slice(5),
    ['cursor=', 'secret='],
    'isolated: SECRET_TOKEN not passed',
  );
  const paged = completion(await complete(server, 'paged', ''));
  t.same(paged.values, ['first', 'second']);
  t.equal(paged.hasMore, true, 'a script cursor means more');
  t.same(
    completion(await complete(server, 'paged', '', { cursor: paged.nextCursor })),
    { values: ['third'], hasMore: false },
    'the script got its cursor back',
  );
});

t.test('failing completion scripts are internal errors', async (t) => {
  const server = await serve(
    t,
    withRegistrations([
      { name: 'slow', path: 'completions/slow.sh', timeoutSecs: 1 },
      { name: 'fail', path: 'completions/fail.sh' },
      { name: 'bad', path: 'completions/bad.sh' },
    ]),
  );
  t.match((await complete(server, 'slow', '')).error, {
    code: -32603,
    message: 'Completion script timed out after 1s',
  });
  t.match((await complete(server, 'fail', '')).error, { code: -32603, message: 'no completions for you' });
  t.match((await complete(server, 'bad', '')).error, {
    code: -32603,
    message: 'suggestions must be an array of strings',
  });
  if (process.platform === 'linux') {
    // A 200 KB argument of the prompt, as context: more than one environment variable can hold.
    const context = { arguments: { document: 'x'.repeat(200_000) } };
    t.match((await complete(server, 'fail', 'a', { context })).error, {
      code: -32603,
      message: new RegExp(
        '^Completion script could not be started: ' +
          String.raw`its arguments or environment are larger than the system allows \(E2BIG; `,
      ),
    });
  }
});

t.test(
  'MCPBASH_PROVIDER_ENV_MODE=inherit without its confirmation is a server error naming the variable',
  async (t) => {
    const server = await serve(t, withRegistrations([{ name: 'colors', path: 'completions/colors.sh' }]), {
      MCPBASH_PROVIDER_ENV_MODE: 'inherit',
    });
    t.match((await complete(server, 'colors', 'c')).error, {
      code: -32603,
      message: /set MCPBASH_PROVIDER_ENV_INHERIT_ALLOW=true/,
    });
  },
);

t.test('an invalid completion registration is skipped with a warning naming it (D126)', async (t) => {
  const missing = await serve(
    t,
    withRegistrations([
      { name: 'x', path: 'completions/nope.sh' },
      { name: 'colors', path: 'completions/colors.sh' },
    ]),
  );
  t.same(
    completion(await complete(missing, 'x', 'q')).values,
    ['q', 'q snippet', 'q example'],
    'no script for x: the built-in generator answers',
  );
  t.ok(completion(await complete(missing, 'colors', 'r')).values.includes('red'), 'the good registration is used');
  t.notOk((await missing.request('prompts/list')).error, 'the other kinds are not failed');
  await missing.waitForStderr(/completions\[0\]: path "completions\/nope\.sh" does not exist; the entry is skipped/);
  const outside = await serve(t, withRegistrations([{ name: 'x', path: '../../../../etc/hostname' }]));
  t.notOk((await complete(outside, 'x', '')).error, 'nothing outside the project runs');
  await outside.waitForStderr(
    /completions\[0\]: path "\.\.\/\.\.\/\.\.\/\.\.\/etc\/hostname" (is outside the project root|does not exist)/,
  );
});

t.test('a cursor from another completion source is no longer valid', async (t) => {
  const project = fixtureProject('prompts');
  const server = await serve(t, project);
  const builtin = completion(await complete(server, 'colors', 'c', { limit: 1 }));
  writeFileSync(
    join(project, 'server.d', 'register.json'),
    JSON.stringify({ version: 1, completions: [{ name: 'colors', path: 'completions/colors.sh' }] }),
  );
  t.match((await complete(server, 'colors', 'c', { limit: 1, cursor: builtin.nextCursor })).error, {
    code: -32602,
    message: 'Cursor no longer valid',
  });
  t.same(
    completion(await complete(server, 'colors', 'c', { limit: 1 })).values,
    ['red'],
    'the registration is used from now on',
  );
});

t.test('register.sh registers completions (hooks on)', async (t) => {
  const project = fixtureProject('prompts');
  const hook = join(project, 'server.d', 'register.sh');
  writeFileSync(
    hook,
    '#!/usr/bin/env bash\nmcp_completion_manual_begin\nmcp_completion_manual_register ' +
      '\'{"name":"colors","path":"completions/colors.sh"}\'\nmcp_completion_manual_finalize\n',
  );
  chmodSync(hook, 0o755);
  const server = await serve(t, project, { MCPBASH_ALLOW_PROJECT_HOOKS: 'true' });
  t.same(completion(await complete(server, 'colors', 'c', { limit: 2 })).values, ['red', 'orange']);
});

t.test('ref/resource: the URI names the resource; a script beside its file completes it', async (t) => {
  const project = fixtureProject('resources');
  const server = await serve(t, project);
  const ref = { type: 'ref/resource', uri: `file://${project}/resources/notes.txt` };
  const response = await server.request('completion/complete', { ref, argument: { name: 'line', value: '' } });
  t.same(completion(response), { values: ['resource:notes.txt', 'provider:file', 'uri-set:yes'], hasMore: false });
  const unknown = await server.request('completion/complete', {
    ref: { type: 'ref/resource', uri: 'myapi://other/{id}' },
    argument: { name: 'id', value: '' },
  });
  t.same(
    completion(unknown).values,
    ['myapi://other/{id}', 'myapi://other/{id} snippet', 'myapi://other/{id} example'],
    'unregistered URIs fall back to the built-in generator',
  );
});

t.test(
  "ref/resource with a template's uriTemplate selects the completion registered under the template's name",
  async (t) => {
    const project = fixtureProject('resources');
    mkdirSync(join(project, 'completions'));
    const script = join(project, 'completions', 'ids.sh');
    writeFileSync(
      script,
      '#!/usr/bin/env bash\nprintf \'["%s-1","%s-2"]\' "$MCP_COMPLETION_NAME" "$MCP_COMPLETION_NAME"\n',
    );
    chmodSync(script, 0o755);
    writeFileSync(
      join(project, 'server.d', 'register.json'),
      JSON.stringify({ version: 1, completions: [{ name: 'item', path: 'completions/ids.sh' }] }),
    );
    const server = await serve(t, project);
    const response = await server.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'myapi://items/{id}' },
      argument: { name: 'id', value: '4' },
    });
    t.same(
      completion(response),
      { values: ['item-1', 'item-2'], hasMore: false },
      'the template "item" has uriTemplate myapi://items/{id}',
    );
  },
);

t.test('the official SDK client completes prompt arguments', async (t) => {
  const { client } = await connectSdkClient({
    env: sdkEnv(isolatedEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('prompts') })),
  });
  t.teardown(() => client.close());
  const result = await client.complete({
    ref: { type: 'ref/prompt', name: 'greet' },
    argument: { name: 'name', value: 'n' },
  });
  t.same(result.completion.values, ['name-0', 'name-1', 'name-2', 'name-3', 'name-4']);
  t.equal(result.completion.hasMore, true);
});
