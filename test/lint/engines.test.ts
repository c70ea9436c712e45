/**
 * `npm ci` is quiet on every Node the project says it supports (issue 13): each installed
 * package's `engines.node` accepts the lowest version of each range in package.json's
 * `engines.node`, the README names that range, and the tools run under the pinned Node 22
 * (pkg, from release/pkg; the conformance runners, from test/conformance) accept that Node.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Range from 'semver/classes/range.js';
import satisfies from 'semver/functions/satisfies.js';
import minVersion from 'semver/ranges/min-version.js';
import t from 'tap';
import { repoRoot } from '../helpers/paths.js';

const readJson = (path: string) => JSON.parse(readFileSync(join(repoRoot, path), 'utf8'));

interface Lock {
  packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
}

/**
 * Packages of a lockfile whose engines.node refuses `version`, among those npm ci installed:
 * an optional package for another platform (knip's wasm32 resolver binding and its runtime)
 * is in the lockfile but never installed, and npm says nothing of it.
 */
function refusing(lock: Lock, version: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '' && existsSync(join(repoRoot, path)))
    .filter(([, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range !== undefined && !satisfies(version, range);
    })
    .map(([path, entry]) => `${path} (${(entry.engines as { node: string }).node})`);
}

const supported: string = readJson('package.json').engines.node;
const lowest = new Range(supported).set.map((comparators) => minVersion(comparators.map(String).join(' '))?.version);

t.test('every package npm ci installs accepts the lowest Node of each supported range', async (t) => {
  t.ok(lowest.length > 0 && lowest.every(Boolean), `engines.node "${supported}" has lower bounds`);
  const lock = readJson('package-lock.json') as Lock;
  for (const version of lowest as string[]) t.same(refusing(lock, version), [], `Node ${version}`);
});

t.test('pkg is not a dependency of the project; its own lockfile runs under the pinned Node 22', async (t) => {
  const manifest = readJson('package.json');
  t.notOk(
    '@yao-pkg/pkg' in { ...manifest.dependencies, ...manifest.devDependencies },
    'installed by release/pkg-tool.mjs',
  );
  const pinned: string = readJson('release/node-binaries.json').version;
  t.same(refusing(readJson('release/pkg/package-lock.json') as Lock, pinned), [], `Node ${pinned}`);
});

t.test(
  'nor are the conformance runners (Node 22 only); their own lockfile runs under the pinned Node 22',
  async (t) => {
    const manifest = readJson('package.json');
    t.notOk(
      '@modelcontextprotocol/conformance' in { ...manifest.dependencies, ...manifest.devDependencies },
      'installed by release/pkg-tool.mjs from test/conformance/',
    );
    const pinned: string = readJson('release/node-binaries.json').version;
    t.same(refusing(readJson('test/conformance/package-lock.json') as Lock, pinned), [], `Node ${pinned}`);
  },
);

t.test('the README states the supported Node versions', async (t) => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  for (const version of lowest as string[]) {
    const [major, minor] = version.split('.');
    t.match(readme, new RegExp(`\\b${major}\\.${minor}\\+`), `README says Node ${major}.${minor}+`);
  }
});
