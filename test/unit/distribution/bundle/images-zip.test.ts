import { copyFileSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import t from 'tap';
import { loadConfig } from '../../../../src/config/config.js';
import { collectImages, pngSize } from '../../../../src/distribution/bundle/bundle-images.js';
import { archiveTime as clampTime, sortEntries, writeZip } from '../../../../src/distribution/bundle/zip-writer.js';

/** The entries' time for an environment, as `bundle` reads SOURCE_DATE_EPOCH. */
const archiveTime = (env: Record<string, string>) => clampTime(loadConfig(env).values.SOURCE_DATE_EPOCH);

import { fixtureSource } from '../../../helpers/fixtures.js';
import { zipEntries } from '../../../helpers/zip-entries.js';

const PNG = join(fixtureSource('bundle-demo'), 'icon.png');

t.test('images: icon.png (PNG only), icons with sizes, screenshots; what cannot ship is named', async (t) => {
  const dir = t.testdir({
    outside: {},
    p: { 'server.d': {}, docs: {}, 'icon.svg': '<svg/>', 'fake.png': 'not a png' },
  });
  const root = join(dir, 'p');
  copyFileSync(PNG, join(dir, 'outside', 'o.png'));
  symlinkSync(join(dir, 'outside', 'o.png'), join(root, 'docs', 'linked-out.png'));
  copyFileSync(PNG, join(root, 'docs', 'shot.png'));
  const svgOnly = collectImages(root, join(root, 'server.d'), {});
  t.equal(svgOnly.icon, undefined);
  t.same(svgOnly.warnings, ['icon.svg left out: MCPB bundle icons must be PNG (add an icon.png, 512x512)']);
  writeFileSync(join(root, 'icon.png'), 'not a png');
  t.match(collectImages(root, join(root, 'server.d'), {}).warnings, ['icon.png is not a PNG image; left out']);
  copyFileSync(PNG, join(root, 'icon.png'));
  const images = collectImages(root, join(root, 'server.d'), {
    icons: [
      { src: 'docs/shot.png', theme: 'light' },
      { src: 'https://example.com/a.png', size: '32x32' },
      { src: 'https://example.com/nosize.png' },
      { src: 'fake.png' },
      { src: 'missing.png', size: '1x1' },
      { src: 'docs/linked-out.png', size: '1x1' },
      { nosrc: true },
    ],
    screenshots: ['docs/shot.png', 'https://example.com/s.png', 'gone.png'],
  });
  t.equal(images.icon, 'icon.png');
  t.same(images.icons, [
    { src: 'docs/shot.png', size: '16x16', theme: 'light' },
    { src: 'https://example.com/a.png', size: '32x32' },
  ]);
  t.same(images.screenshots, ['docs/shot.png', 'https://example.com/s.png']);
  t.same(images.entries.map((entry) => entry.path).sort(), ['docs/shot.png', 'icon.png'], 'each file once');
  t.same(images.warnings, [
    'icon https://example.com/nosize.png: MCPB needs its size ("size": "64x64"); left out',
    'icon fake.png: MCPB needs its size ("size": "64x64"); left out',
    'icon missing.png not found; left out',
    'icon docs/linked-out.png is outside the project; left out',
    'an icon without a string src in server.meta.json; left out',
    'screenshot gone.png not found; left out',
  ]);
  t.equal(pngSize(PNG), '16x16');
});

t.test('zip: one time for every entry, SOURCE_DATE_EPOCH clamped into ZIP range', async (t) => {
  t.equal(archiveTime({}), 315532800, '1980-01-01 by default');
  t.equal(archiveTime({ SOURCE_DATE_EPOCH: '1700000000' }), 1700000000);
  t.equal(archiveTime({ SOURCE_DATE_EPOCH: '0' }), 315532800, 'before 1980: clamped');
  t.equal(archiveTime({ SOURCE_DATE_EPOCH: '99999999999' }), 4354819198, 'after 2107: clamped');
  t.equal(archiveTime({ SOURCE_DATE_EPOCH: 'soon' }), 315532800, 'not a number: the default');
});

t.test('zip: sorted by bytes, modes kept, contents intact, written whole or not at all', async (t) => {
  const dir = t.testdir({ 'src.txt': 'from disk' });
  const out = join(dir, 'out.zip');
  const entries = [
    { path: 'b/run.sh', mode: 0o755, data: Buffer.from('#!/bin/sh\n') },
    { path: 'B.txt', mode: 0o644, data: Buffer.from('upper') },
    { path: 'a/é.txt', mode: 0o644, source: join(dir, 'src.txt') },
  ];
  const size = writeZip(entries, out, 1700000000);
  const bytes = readFileSync(out);
  t.equal(size, bytes.length, 'the size written is returned');
  t.same(
    zipEntries(bytes).map((entry) => [entry.name, entry.mode.toString(8)]),
    [
      ['B.txt', '644'],
      ['a/é.txt', '644'],
      ['b/run.sh', '755'],
    ],
  );
  const files = unzipSync(bytes);
  t.equal(Buffer.from(files['a/é.txt'] as Uint8Array).toString(), 'from disk');
  t.equal(Buffer.from(files['b/run.sh'] as Uint8Array).toString(), '#!/bin/sh\n');
  writeZip(entries.slice(1), out, 1700000000);
  t.equal(Object.keys(unzipSync(readFileSync(out))).length, 2, 'an existing file is replaced');
  t.throws(
    () => writeZip([...entries, { path: 'B.txt', mode: 0o644, data: Buffer.from('') }], out, 0),
    /archive path B\.txt twice/,
  );
  t.throws(
    () => writeZip([{ path: 'x', mode: 0o644, source: join(dir, 'missing') }], join(dir, 'bad.zip'), 0),
    /ENOENT/,
  );
  t.same(readdirSync(dir).sort(), ['out.zip', 'src.txt'], 'no partial file or temp file left behind');
  t.throws(
    () =>
      sortEntries([
        { path: 'x', mode: 0 },
        { path: 'x', mode: 0 },
      ]),
    /twice/,
  );
});
