import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import * as tar from 'tar';
import {
  type AssetBundle,
  ensureExtracted,
  extractionName,
  isCompleteExtraction,
  MARKER_FILE,
} from '../../../src/assets/extract-archive.js';

function makeBundle(
  workDir: string,
  files: Record<string, { content: string; mode?: number }>,
  hash = 'abc123def456',
): AssetBundle {
  const source = join(workDir, 'source');
  for (const [path, { content, mode }] of Object.entries(files)) {
    const full = join(source, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, content);
    chmodSync(full, mode ?? 0o644);
  }
  const archivePath = join(workDir, 'assets.tgz');
  tar.c({ cwd: source, file: archivePath, sync: true, gzip: true, portable: true }, Object.keys(files));
  const archive = readFileSync(archivePath);
  return {
    version: '9.9.9',
    contentHash: hash,
    fileCount: Object.keys(files).length,
    sentinel: 'sdk/tool-sdk.sh',
    archive: () => archive,
  };
}

const sampleFiles = {
  'sdk/tool-sdk.sh': { content: '# sdk\n' },
  'providers/file.sh': { content: '#!/usr/bin/env bash\necho hi\n', mode: 0o755 },
};

t.test('a first run unpacks every file, keeps exec bits, and writes the marker last', async (t) => {
  const root = t.testdir();
  const parent = join(root, 'data');
  const bundle = makeBundle(join(root, 'work'), sampleFiles);
  const { dir, extracted } = ensureExtracted(parent, bundle);
  t.equal(dir, join(parent, '9.9.9-abc123def456'));
  t.ok(extracted);
  t.equal(readFileSync(join(dir, 'sdk/tool-sdk.sh'), 'utf8'), '# sdk\n');
  t.equal(statSync(join(dir, 'providers/file.sh')).mode & 0o111, 0o111, 'provider stays executable');
  const marker = JSON.parse(readFileSync(join(dir, MARKER_FILE), 'utf8'));
  t.match(marker, { version: '9.9.9', contentHash: 'abc123def456', fileCount: 2 });
  t.same(readdirSync(parent), ['9.9.9-abc123def456'], 'no staging dir is left behind');
});

t.test('a later run takes the fast path and touches nothing', async (t) => {
  const root = t.testdir();
  const parent = join(root, 'data');
  let decoded = 0;
  const base = makeBundle(join(root, 'work'), sampleFiles);
  const bundle = {
    ...base,
    archive: () => {
      decoded += 1;
      return base.archive();
    },
  };
  ensureExtracted(parent, bundle);
  const markerMtime = statSync(join(parent, extractionName(bundle), MARKER_FILE)).mtimeMs;
  const again = ensureExtracted(parent, bundle);
  t.equal(again.extracted, false);
  t.equal(decoded, 1, 'the archive is decoded only once');
  t.equal(statSync(join(again.dir, MARKER_FILE)).mtimeMs, markerMtime);
});

const leftovers: Record<string, (dir: string) => void> = {
  'an empty directory': () => {},
  'files without a marker (interrupted copy)': (dir) => writeFileSync(join(dir, 'half-written'), 'x'),
  'a marker for another content hash': (dir) =>
    writeFileSync(join(dir, MARKER_FILE), JSON.stringify({ version: '9.9.9', contentHash: 'other' })),
  'an unparsable marker': (dir) => writeFileSync(join(dir, MARKER_FILE), '{"version":'),
  'a marker but a deleted SDK': (dir) =>
    writeFileSync(join(dir, MARKER_FILE), JSON.stringify({ version: '9.9.9', contentHash: 'abc123def456' })),
};

for (const [name, damage] of Object.entries(leftovers)) {
  t.test(`a leftover with ${name} is replaced by a complete copy`, async (t) => {
    const root = t.testdir();
    const parent = join(root, 'data');
    const bundle = makeBundle(join(root, 'work'), sampleFiles);
    const target = join(parent, extractionName(bundle));
    mkdirSync(target, { recursive: true });
    damage(target);
    t.notOk(isCompleteExtraction(target, bundle));
    const { dir, extracted } = ensureExtracted(parent, bundle);
    t.ok(extracted);
    t.ok(isCompleteExtraction(dir, bundle));
    t.notOk(existsSync(join(dir, 'half-written')), 'nothing of the leftover survives');
    t.same(readdirSync(parent), [extractionName(bundle)], 'the stale copy is removed');
  });
}

t.test('a file in place of the target directory is replaced', async (t) => {
  const root = t.testdir();
  const parent = join(root, 'data');
  const bundle = makeBundle(join(root, 'work'), sampleFiles);
  mkdirSync(parent);
  writeFileSync(join(parent, extractionName(bundle)), 'not a directory');
  const { dir } = ensureExtracted(parent, bundle);
  t.ok(isCompleteExtraction(dir, bundle));
});

t.test('old abandoned staging dirs are cleaned up, recent ones are left alone', async (t) => {
  const root = t.testdir();
  const parent = join(root, 'data');
  const bundle = makeBundle(join(root, 'work'), sampleFiles);
  const name = extractionName(bundle);
  const old = join(parent, `.${name}.tmp-old`);
  const recent = join(parent, `.${name}.tmp-recent`);
  mkdirSync(old, { recursive: true });
  mkdirSync(recent);
  const twoHoursAgo = (Date.now() - 2 * 3600_000) / 1000;
  utimesSync(old, twoHoursAgo, twoHoursAgo);
  ensureExtracted(parent, bundle);
  t.notOk(existsSync(old), "a crashed run's staging dir from two hours ago is removed");
  t.ok(existsSync(recent), 'a staging dir that may belong to a running extraction is kept');
});

t.test('a damaged archive fails loudly and leaves no partial home', async (t) => {
  const root = t.testdir();
  const parent = join(root, 'data');
  const good = makeBundle(join(root, 'work'), sampleFiles);
  const bundle = { ...good, archive: () => good.archive().subarray(0, 40) };
  t.throws(() => ensureExtracted(parent, bundle));
  t.notOk(existsSync(join(parent, extractionName(bundle))));
  t.same(readdirSync(parent), [], 'the staging dir is removed');
});
