import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { copyProject } from '../../helpers/fixtures.js';
import { connectHttpClient, startHttpServer } from '../../helpers/http-server.js';
import { repoRoot } from '../../helpers/paths.js';
import { isolatedEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

// deploy/Dockerfile and deploy/kubernetes.yaml: no Docker or cluster here, so the files are
// linted (YAML parsed strictly, every reference checked against the other file and the
// repository), then the binary is run exactly as the image and the Deployment would run it.

type Json = Record<string, unknown>;

const dockerfile = readFileSync(join(repoRoot, 'deploy', 'Dockerfile'), 'utf8');
const envDoc = readFileSync(join(repoRoot, 'docs', 'ENV.md'), 'utf8');

/** The Dockerfile's instructions (continuation lines joined, comments dropped). */
function instructions(): Array<{ op: string; args: string }> {
  return dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .map((line) => {
      const [op, ...rest] = line.trim().split(/\s+/);
      return { op: (op as string).toUpperCase(), args: rest.join(' ') };
    });
}

/** The image's ENV, its ARG defaults, its entrypoint. */
function image() {
  const env: Record<string, string> = {};
  const args: Record<string, string> = {};
  let entrypoint: string[] = [];
  const copies: string[] = [];
  const exposed: string[] = [];
  for (const { op, args: text } of instructions()) {
    if (op === 'ENV') for (const [, key, value] of text.matchAll(/(\w+)=(\S+)/g)) env[key as string] = value as string;
    if (op === 'ARG') {
      const [key, value] = text.split('=');
      args[key as string] = value ?? '';
    }
    if (op === 'ENTRYPOINT') entrypoint = JSON.parse(text) as string[];
    if (op === 'COPY') copies.push((text.split(/\s+/).filter((word) => !word.startsWith('--'))[0] ?? '') as string);
    if (op === 'EXPOSE') exposed.push(text);
  }
  return { env, args, entrypoint, copies, exposed };
}

function kubernetes(): { deployment: Json; service: Json } {
  const documents = parseAllDocuments(readFileSync(join(repoRoot, 'deploy', 'kubernetes.yaml'), 'utf8'), {
    uniqueKeys: true,
    strict: true,
  });
  const list = Array.isArray(documents) ? documents : [documents];
  for (const document of list) {
    if (document.errors.length > 0 || document.warnings.length > 0) {
      throw new Error(`kubernetes.yaml: ${[...document.errors, ...document.warnings].join('; ')}`);
    }
  }
  const objects = list.map((document) => document.toJS() as Json);
  const byKind = (kind: string) => objects.find((object) => object.kind === kind) as Json;
  return { deployment: byKind('Deployment'), service: byKind('Service') };
}

const at = (value: unknown, ...path: Array<string | number>): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);

t.test('the Dockerfile: its sources exist, its settings are documented', async (t) => {
  const { env, args, entrypoint, copies, exposed } = image();
  t.same(entrypoint, ['mcp-bash', 'serve']);
  const project = args.PROJECT as string;
  t.ok(
    existsSync(join(repoRoot, project, 'server.d', 'server.meta.json')),
    `the default PROJECT ${project} is a project`,
  );
  for (const source of copies) {
    const path = source.replace('${PROJECT}', project);
    t.ok(path === 'dist/mcp-bash' || existsSync(join(repoRoot, path)), `COPY ${path} exists`);
  }
  t.same(exposed, [env.MCPBASH_HTTP_LISTEN?.split(':')[1]], 'EXPOSE is the port it listens on');
  for (const name of Object.keys(env)) {
    t.ok(envDoc.includes(`\`${name}\``), `${name} is in docs/ENV.md`);
  }
  t.match(readFileSync(join(repoRoot, '.dockerignore'), 'utf8'), /node_modules/, 'the build context stays small');
});

t.test('kubernetes.yaml: strict YAML, the Service reaches the pods, probes hit the health endpoints', async (t) => {
  const { deployment, service } = kubernetes();
  t.equal(deployment.apiVersion, 'apps/v1');
  t.equal(service.apiVersion, 'v1');
  const labels = at(deployment, 'spec', 'template', 'metadata', 'labels') as Json;
  t.same(at(deployment, 'spec', 'selector', 'matchLabels'), labels, 'the Deployment selects its pods');
  t.same(at(service, 'spec', 'selector'), labels, 'the Service selects the same pods');
  const container = at(deployment, 'spec', 'template', 'spec', 'containers', 0) as Json;
  const ports = container.ports as Array<{ name: string; containerPort: number }>;
  const target = at(service, 'spec', 'ports', 0, 'targetPort');
  const port = ports.find((entry) => entry.name === target);
  t.ok(port, `the Service's targetPort ${String(target)} names a container port`);
  const args = container.args as string[];
  t.equal(args[args.indexOf('--http') + 1], `0.0.0.0:${port?.containerPort}`, 'the server listens on that port');
  t.ok(args.includes('--stateless'), 'replicas without sticky sessions run stateless');
  t.equal(at(container, 'readinessProbe', 'httpGet', 'path'), '/readyz');
  t.equal(at(container, 'livenessProbe', 'httpGet', 'path'), '/healthz');
  t.equal(at(container, 'readinessProbe', 'httpGet', 'port'), target);
  const env = container.env as Array<{ name: string; value?: string }>;
  for (const { name } of env) t.ok(envDoc.includes(`\`${name}\``), `${name} is in docs/ENV.md`);
  t.ok(
    env.some((entry) => entry.name === 'MCPBASH_HTTP_TOKEN'),
    'a token: the server refuses 0.0.0.0 without one',
  );
  const shutdown = Number(env.find((entry) => entry.name === 'MCPBASH_SHUTDOWN_TIMEOUT')?.value);
  const pause = Number(at(container, 'lifecycle', 'preStop', 'sleep', 'seconds'));
  t.ok(pause > 0, 'a preStop pause: the Service stops routing here before the drain starts');
  t.ok(
    Number(at(deployment, 'spec', 'template', 'spec', 'terminationGracePeriodSeconds')) > pause + shutdown,
    'Kubernetes waits longer than the pause and the drain',
  );
});

t.test('the binary serves as the image and the Deployment configure it', async (t) => {
  const { env: imageEnv, args: imageArgs } = image();
  const { deployment } = kubernetes();
  const container = at(deployment, 'spec', 'template', 'spec', 'containers', 0) as Json;
  const scratch = scratchDir('mcpbash-image-');
  const project = copyProject(join(repoRoot, imageArgs.PROJECT as string), 'project');
  // The image's paths, moved under this test's directories; everything else as written.
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(imageEnv)) {
    env[name] = value.replace(/^\/tmp/, scratch).replace('/srv/project', project);
  }
  const token = 't'.repeat(40);
  for (const entry of container.env as Array<{ name: string; value?: string }>) {
    env[entry.name] = entry.value ?? token;
  }
  // The port is the one thing changed: any free one on loopback.
  const args = (container.args as string[]).map((arg) => (arg === '0.0.0.0:8080' ? '127.0.0.1:0' : arg));
  const server = await startHttpServer(t, { env: isolatedEnv(env), args });
  for (const path of ['/healthz', '/readyz']) {
    const probe = await fetch(`${server.origin}${path}`);
    t.equal(probe.status, 200, `${path} says ready`);
    await probe.text();
  }
  const { client } = await connectHttpClient(server.url, { headers: { authorization: `Bearer ${token}` } });
  t.teardown(() => client.close());
  const hello = await client.callTool({ name: 'hello', arguments: { name: 'Kubernetes' } });
  t.match(hello.structuredContent, { result: { message: /Kubernetes/ } });
  t.notOk(existsSync(join(project, '.registry')), 'nothing is written into the (read-only) project');
});
