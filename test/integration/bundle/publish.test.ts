/**
 * `mcp-bash publish` against a recording registry on 127.0.0.1: the checks before sending,
 * the request (headers, body), and what each registry answer means.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import t from 'tap';
import { cli, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { fixtureProject } from '../../helpers/fixtures.js';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bodySha: string;
}

const recorded: Recorded[] = [];
const answers: Array<{ status: number; body: string; location?: string }> = [];
const registry = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    recorded.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      bodySha: createHash('sha256').update(Buffer.concat(chunks)).digest('hex'),
    });
    const answer = answers.shift() ?? { status: 500, body: 'no answer queued' };
    const location = answer.location ? { location: answer.location } : {};
    response.writeHead(answer.status, { 'content-type': 'application/json', ...location }).end(answer.body);
  });
});
await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
t.teardown(() => registry.close());
const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
const env = sharedCliEnv({ MCP_REGISTRY_URL: url, MCP_REGISTRY_TOKEN: 'env-token' });

// A real bundle, made by the binary.
const project = fixtureProject('bundle-demo');
const made = await cli(['bundle', '--output', 'out'], sharedCliEnv(), project);
if (made.code !== 0) throw new Error(`bundle failed: ${made.stderr}`);
const bundle = join(project, 'out', readdirSync(join(project, 'out'))[0] as string);
const bundleSha = createHash('sha256').update(readFileSync(bundle)).digest('hex');

t.test('a published bundle: POST /api/v1/bundles with the token and the bundle bytes', async (t) => {
  recorded.length = 0;
  answers.push({ status: 201, body: '{"message":"created"}' });
  const run = await cli(['publish', bundle], env, project);
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'Published bundle-demo@1.2.3: created\n');
  t.equal(recorded.length, 1);
  t.match(recorded[0], {
    method: 'POST',
    url: '/api/v1/bundles',
    headers: {
      authorization: 'Bearer env-token',
      'content-type': 'application/octet-stream',
      'x-bundle-name': 'bundle-demo',
    },
    bodySha: bundleSha,
  });
  answers.push({ status: 200, body: '' });
  const flagged = await cli(['publish', bundle, '--token', 'flag-token', '--verbose'], env, project);
  t.equal(flagged.code, 0, 'HTTP 200 is success too');
  t.equal(recorded[1]?.headers.authorization, 'Bearer flag-token', '--token wins over MCP_REGISTRY_TOKEN');
  t.match(flagged.stderr, /POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/bundles[\s\S]*Authorization: Bearer \*\*\*/);
  t.notMatch(flagged.stderr, /flag-token/, 'the token is never printed');
});

t.test('each refusal of the registry has its own message and exit 1', async (t) => {
  const cases: Array<[number, string, RegExp]> = [
    [
      401,
      '{"error":"bad token"}',
      /the registry refused the token \(HTTP 401\): bad token\nCheck --token or MCP_REGISTRY_TOKEN\./,
    ],
    [409, '', /bundle-demo@1\.2\.3 is already published \(HTTP 409\)\nBump the version/],
    [
      422,
      '{"message":"manifest.author is required"}',
      /rejected the bundle \(HTTP 422\): manifest\.author is required/,
    ],
    [503, 'down for maintenance', /the registry answered HTTP 503: down for maintenance/],
  ];
  for (const [status, body, message] of cases) {
    answers.push({ status, body });
    const run = await cli(['publish', bundle], env, project);
    t.equal(run.code, 1, `HTTP ${status}: exit 1`);
    t.match(run.stderr, message, `HTTP ${status}: ${run.stderr}`);
  }
  for (const status of [301, 302, 303, 307, 308]) {
    // Followed, a redirect would turn the POST into a GET without the bundle (301-303) whose
    // landing page (200) read as "Published", or fail on the spent body (307, 308).
    recorded.length = 0;
    answers.push({ status, body: '', location: '/landing' }, { status: 200, body: '<html>welcome</html>' });
    const run = await cli(['publish', bundle], env, project);
    t.equal(run.code, 1, `HTTP ${status}: exit 1`);
    t.equal(run.stdout, '', `HTTP ${status}: nothing claims success`);
    t.match(
      run.stderr,
      new RegExp(`HTTP ${status}, a redirect to /landing; nothing was published\nSet MCP_REGISTRY_URL`),
    );
    t.same(
      recorded.map((request) => `${request.method} ${request.url}`),
      ['POST /api/v1/bundles'],
      'the redirect is not followed',
    );
    answers.length = 0;
  }
  const closed = await cli(['publish', bundle], { ...env, MCP_REGISTRY_URL: 'http://127.0.0.1:9' }, project);
  t.equal(closed.code, 1);
  t.match(closed.stderr, /cannot reach http:\/\/127\.0\.0\.1:9\/api\/v1\/bundles/);
});

t.test('checks before anything is sent', async (t) => {
  recorded.length = 0;
  const dir = tempDir();
  const zip = (manifest: unknown) => Buffer.from(zipSync({ 'manifest.json': strToU8(JSON.stringify(manifest)) }));
  writeFileSync(join(dir, 'text.mcpb'), 'not a zip');
  writeFileSync(join(dir, 'empty.mcpb'), Buffer.from(zipSync({ 'other.txt': strToU8('x') })));
  writeFileSync(join(dir, 'partial.mcpb'), zip({ name: 'n', version: '1.0.0' }));
  writeFileSync(join(dir, 'anonymous.mcpb'), zip({ name: 'n', version: '1.0.0', description: 'd' }));
  const cases: Array<[string[], NodeJS.ProcessEnv, number, RegExp]> = [
    [[join(dir, 'missing.mcpb')], env, 1, /missing\.mcpb does not exist or is not a file/],
    [[join(dir, 'text.mcpb')], env, 1, /text\.mcpb is not a zip archive/],
    [[join(dir, 'empty.mcpb')], env, 1, /empty\.mcpb has no manifest\.json at its root/],
    [[join(dir, 'partial.mcpb')], env, 1, /manifest\.json has no description/],
    [[], env, 2, /the bundle file is required/],
    [[bundle, 'extra'], env, 2, /unexpected argument "extra"/],
    [[bundle], { ...env, MCP_REGISTRY_TOKEN: '' }, 2, /no registry token\nPass --token T or set MCP_REGISTRY_TOKEN\./],
  ];
  for (const [args, runEnv, code, message] of cases) {
    const run = await cli(['publish', ...args], runEnv, project);
    t.equal(run.code, code, `publish ${args.join(' ')}: exit ${code}`);
    t.match(run.stderr, message);
  }
  const dry = await cli(
    ['publish', join(dir, 'anonymous.mcpb'), '--dry-run'],
    { ...env, MCP_REGISTRY_TOKEN: '' },
    project,
  );
  t.equal(dry.code, 0, '--dry-run needs no token');
  t.match(dry.stderr, /mcp-bash publish: warning: the manifest names no author/);
  t.match(dry.stdout, /Dry run: n@1\.0\.0 is ready to publish to http:\/\/127\.0\.0\.1:\d+ \(set MCP_REGISTRY_TOKEN/);
  const ftp = await cli(['publish', bundle, '--dry-run'], { ...env, MCP_REGISTRY_URL: 'ftp://x' }, project);
  t.equal(ftp.code, 2, 'a registry URL the upload could not use fails the dry run too');
  t.match(ftp.stderr, /MCP_REGISTRY_URL is not an http\(s\) URL: "ftp:\/\/x"/);
  t.same(recorded, [], 'nothing reached the registry');
});
