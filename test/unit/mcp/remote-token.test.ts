import t from 'tap';
import { loadServerConfig } from '../../../src/config/server-config.js';
import {
  remoteTokenProblem as problemOf,
  RemoteTokenGuard,
  remoteTokenSettings as settingsOf,
} from '../../../src/mcp/remote-token.js';

/** The guard's settings and problem as the server reads them from an environment. */
const remoteTokenSettings = (env: Record<string, string>) => settingsOf(loadServerConfig(env).remoteToken);
const remoteTokenProblem = (env: Record<string, string>) => problemOf(loadServerConfig(env).remoteToken);

const TOKEN = 'a'.repeat(40);

function guard(env: Record<string, string> = {}) {
  const reports: string[] = [];
  let now = 0;
  const settings = remoteTokenSettings({ MCPBASH_REMOTE_TOKEN: TOKEN, ...env });
  if (!settings) throw new Error('expected the guard to be enabled');
  const instance = new RemoteTokenGuard(
    settings,
    (level, message) => reports.push(`${level}: ${message}`),
    () => now,
  );
  return {
    guard: instance,
    reports,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

t.test('settings: unset or empty disables; shorter than 32 characters is a problem', async (t) => {
  t.equal(remoteTokenSettings({}), undefined);
  t.equal(remoteTokenSettings({ MCPBASH_REMOTE_TOKEN: '' }), undefined);
  t.equal(remoteTokenProblem({ MCPBASH_REMOTE_TOKEN: '' }), undefined);
  t.match(remoteTokenProblem({ MCPBASH_REMOTE_TOKEN: 'short' }), /5 characters long; it must have at least 32/);
  t.equal(remoteTokenSettings({ MCPBASH_REMOTE_TOKEN: 'short' }), undefined);
  t.equal(remoteTokenProblem({ MCPBASH_REMOTE_TOKEN: 'x'.repeat(32) }), undefined);
  t.same(remoteTokenSettings({ MCPBASH_REMOTE_TOKEN: TOKEN }), {
    token: TOKEN,
    key: 'mcpbash/remoteToken',
    fallbackKey: 'remoteToken',
    maxFailuresPerMinute: 10,
  });
});

t.test('the token is accepted under either key and then removed from _meta', async (t) => {
  const { guard: g } = guard();
  const primary = { _meta: { 'mcpbash/remoteToken': TOKEN, progressToken: 1 } };
  t.equal(g.admit('ping', primary), undefined);
  t.same(primary, { _meta: { progressToken: 1 } }, 'handlers and tools never see the secret');
  const fallback = { _meta: { remoteToken: TOKEN } };
  t.equal(g.admit('ping', fallback), undefined);
  const wrongThenRight = { _meta: { 'mcpbash/remoteToken': 'nope', remoteToken: TOKEN } };
  t.equal(g.admit('ping', wrongThenRight), undefined);
  t.same(wrongThenRight, { _meta: {} });
});

t.test('custom keys replace the default ones', async (t) => {
  const { guard: g } = guard({ MCPBASH_REMOTE_TOKEN_KEY: 'acme/auth', MCPBASH_REMOTE_TOKEN_FALLBACK_KEY: 'auth' });
  t.equal(g.admit('ping', { _meta: { 'acme/auth': TOKEN } }), undefined);
  t.equal(g.admit('ping', { _meta: { auth: TOKEN } }), undefined);
  t.match(g.admit('ping', { _meta: { 'mcpbash/remoteToken': TOKEN } }), { code: -32602 });
});

t.test('missing, wrong, non-string or misplaced tokens are -32602', async (t) => {
  const { guard: g, reports } = guard();
  for (const params of [
    undefined,
    [],
    {},
    { _meta: null },
    { _meta: { remoteToken: 42 } },
    { _meta: { remoteToken: `${TOKEN}x` } },
    { remoteToken: TOKEN },
  ]) {
    t.same(
      g.admit('tools/list', params as never)?.toJSON(),
      { code: -32602, message: 'Remote token missing or invalid' },
      JSON.stringify(params),
    );
  }
  t.match(reports[0], /^warning: refused tools\/list: remote token missing or invalid$/);
  t.notMatch(reports.join('\n'), new RegExp(TOKEN), 'the secret is never logged');
});

t.test('more than MCPBASH_REMOTE_TOKEN_MAX_FAILURES_PER_MIN failures a minute are marked throttled', async (t) => {
  const { guard: g, reports, advance } = guard({ MCPBASH_REMOTE_TOKEN_MAX_FAILURES_PER_MIN: '3' });
  const messages = [1, 2, 3, 4, 5].map(() => g.admit('ping', {})?.message);
  t.same(messages, [
    'Remote token missing or invalid',
    'Remote token missing or invalid',
    'Remote token missing or invalid',
    'Remote token missing or invalid (throttled)',
    'Remote token missing or invalid (throttled)',
  ]);
  t.match(reports.at(-1), /^debug: /, 'a flood is not logged at warning');
  advance(60_000);
  t.equal(g.admit('ping', {})?.message, 'Remote token missing or invalid', 'the budget refills after a minute');
  t.equal(g.admit('ping', { _meta: { remoteToken: TOKEN } }), undefined, 'a good token still passes');
});

t.test('answers to our requests carry the token in result._meta (or error.data._meta)', async (t) => {
  const { guard: g, reports } = guard();
  const result = { roots: [], _meta: { 'mcpbash/remoteToken': TOKEN, other: 1 } };
  t.ok(g.admitResponse({ jsonrpc: '2.0', id: 'x', result }));
  t.same(result._meta, { other: 1 }, 'the token is removed');
  const data = { _meta: { remoteToken: TOKEN } };
  t.ok(g.admitResponse({ jsonrpc: '2.0', id: 'x', error: { code: -1, message: 'no', data } }));
  t.notOk(g.admitResponse({ jsonrpc: '2.0', id: 'x', result: { roots: [] } }), 'no token');
  t.notOk(g.admitResponse({ jsonrpc: '2.0', id: 'x', result: { _meta: { remoteToken: `${TOKEN}x` } } }), 'wrong token');
  t.notOk(g.admitResponse({ jsonrpc: '2.0', id: 'x', result: 'scalar' }));
  t.match(reports, [/warning: refused a response to our request/, /warning/, /warning/]);
});
