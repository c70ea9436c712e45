import type { IncomingMessage } from 'node:http';
import t from 'tap';
import { loadConfig } from '../../../src/config/config.js';
import { resolveHttpSettings } from '../../../src/http/http-settings.js';
import { endpointUrl, isLoopbackHost, parseListenAddress } from '../../../src/http/listen-address.js';
import {
  acceptedTypes,
  BearerToken,
  checkHost,
  checkOrigin,
  protocolVersionHeader,
} from '../../../src/http/request-guards.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../../src/mcp/protocol-versions.js';

const TOKEN = 'k'.repeat(32);

/** The settings as the binary parses them from an environment. */
const values = (env: Record<string, string>) => loadConfig(env).values;

function req(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

t.test('[HOST:]PORT: loopback by default, IPv6 in brackets, clear errors', async (t) => {
  t.same(parseListenAddress('8080'), { host: '127.0.0.1', port: 8080 });
  t.same(parseListenAddress('0.0.0.0:0'), { host: '0.0.0.0', port: 0 });
  t.same(parseListenAddress('[::1]:9'), { host: '::1', port: 9 });
  t.same(parseListenAddress('localhost:80'), { host: 'localhost', port: 80 });
  t.match(parseListenAddress('70000'), /out of range/);
  t.match(parseListenAddress('[nope]:1'), /not an IPv6 address/);
  t.match(parseListenAddress('::1:80'), /is not \[HOST:\]PORT/);
  t.match(parseListenAddress(''), /is not \[HOST:\]PORT/);
  for (const host of ['127.0.0.1', '127.9.9.9', '::1', '[::1]', 'localhost', 'a.localhost', '::ffff:127.0.0.1']) {
    t.ok(isLoopbackHost(host), `${host} is loopback`);
  }
  for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.com', 'localhost.example.com', '128.0.0.1']) {
    t.notOk(isLoopbackHost(host), `${host} is not`);
  }
  t.equal(endpointUrl('::1', 5, '/mcp'), 'http://[::1]:5/mcp');
});

t.test('settings: flags over the environment; what must not start', async (t) => {
  const ok = resolveHttpSettings(
    '0',
    { stateless: true },
    values({ MCPBASH_HTTP_PATH: '/x', MCPBASH_HTTP_MAX_SESSIONS: '3' }),
  );
  t.match(ok, { path: '/x', stateless: true, maxSessions: 3, token: undefined, sessionIdleMs: 3_600_000 });
  t.match(resolveHttpSettings('0', { path: '/y' }, values({ MCPBASH_HTTP_PATH: '/x' })), { path: '/y' });
  t.match(resolveHttpSettings('0', { path: 'mcp' }, values({})), { problem: /must start with \// });
  t.match(resolveHttpSettings('0', { path: '/healthz' }, values({})), { problem: /other than \/healthz/ });
  t.match(resolveHttpSettings('0.0.0.0:1', {}, values({})), { problem: /refusing to listen on 0\.0\.0\.0/ });
  t.match(resolveHttpSettings('0.0.0.0:1', { insecure: true }, values({})), { listen: { host: '0.0.0.0' } });
  t.match(resolveHttpSettings('0.0.0.0:1', {}, values({ MCPBASH_HTTP_TOKEN: TOKEN })), { token: TOKEN });
  t.match(resolveHttpSettings('1', {}, values({ MCPBASH_HTTP_TOKEN: 'short' })), { problem: /5 characters long/ });
  // Any origin and no token: any page in the user's browser could call the tools (D203).
  const anyOrigin = values({ MCPBASH_HTTP_ALLOWED_ORIGINS: '*' });
  t.match(resolveHttpSettings('1', {}, anyOrigin), { problem: /refusing MCPBASH_HTTP_ALLOWED_ORIGINS='\*'/ });
  t.match(resolveHttpSettings('1', { insecure: true }, anyOrigin), { allowedOrigins: ['*'] });
  t.match(resolveHttpSettings('1', {}, values({ MCPBASH_HTTP_ALLOWED_ORIGINS: '*', MCPBASH_HTTP_TOKEN: TOKEN })), {
    allowedOrigins: ['*'],
  });
  t.match(
    resolveHttpSettings('1', {}, values({ MCPBASH_HTTP_ALLOWED_ORIGINS: 'https://a.example, https://b.example' })),
    {
      allowedOrigins: ['https://a.example', 'https://b.example'],
    },
  );
});

t.test('guards: Origin, Host, token, Accept, version header', async (t) => {
  t.equal(checkOrigin(req({}), []), undefined, 'no Origin: not a browser');
  t.equal(checkOrigin(req({ origin: 'http://localhost:3000' }), []), undefined);
  t.equal(checkOrigin(req({ origin: 'http://[::1]:3000' }), []), undefined);
  t.equal(checkOrigin(req({ origin: 'https://app.example/' }), ['https://app.example']), undefined);
  t.match(checkOrigin(req({ origin: 'https://evil.example' }), ['https://app.example']), { status: 403 });
  t.match(checkOrigin(req({ origin: 'null' }), []), { status: 403 });
  t.equal(checkOrigin(req({ origin: 'https://any.example' }), ['*']), undefined);
  t.equal(checkHost(req({ host: '127.0.0.1:8080' }), true), undefined);
  t.equal(checkHost(req({ host: '[::1]:8080' }), true), undefined);
  t.match(checkHost(req({ host: 'attacker.example:8080' }), true), { status: 403 });
  t.equal(checkHost(req({ host: 'attacker.example' }), false), undefined, 'only a loopback listener checks Host');

  const bearer = new BearerToken(TOKEN);
  t.equal(bearer.check(req({ authorization: `Bearer ${TOKEN}` })), undefined);
  t.equal(bearer.check(req({ authorization: `bearer  ${TOKEN} ` })), undefined, 'scheme is case-insensitive');
  t.match(bearer.check(req({})), { status: 401, message: /required/ });
  t.match(bearer.check(req({ authorization: `Bearer ${TOKEN.slice(1)}` })), { status: 401, message: /invalid/ });
  t.match(bearer.check(req({ authorization: `Basic ${TOKEN}` })), { status: 401 });

  t.same(acceptedTypes(req({ accept: 'application/json, text/event-stream' })), { json: true, sse: true });
  t.same(acceptedTypes(req({ accept: 'text/event-stream;q=1' })), { json: false, sse: true });
  t.same(acceptedTypes(req({})), { json: true, sse: true });
  t.same(acceptedTypes(req({ accept: 'text/html' })), { json: false, sse: false });

  t.equal(protocolVersionHeader(req({}), SUPPORTED_PROTOCOL_VERSIONS), undefined);
  t.equal(
    protocolVersionHeader(req({ 'mcp-protocol-version': '2024-11-05' }), SUPPORTED_PROTOCOL_VERSIONS),
    '2024-11-05',
  );
  t.match(protocolVersionHeader(req({ 'mcp-protocol-version': '2030-01-01' }), SUPPORTED_PROTOCOL_VERSIONS), {
    status: 400,
  });
});
