import t from 'tap';
import { renderFormula, renderInstallScript, renderScoopManifest } from '../../../release/render.mjs';
import { archiveName } from '../../../release/targets.mjs';
import { parseFormula } from '../../helpers/release-files.js';

const targets = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win-x64'];
const version = '2.3.4';
const baseUrl = 'https://downloads.example/mcp-bash/v2.3.4';
const sums = new Map(targets.map((target, index) => [archiveName(version, target), String(index + 1).repeat(64)]));
const release = { version, baseUrl, homepage: 'https://example.org/mcp-bash', targets, sums };

t.test('the formula has one url and sha256 per unix platform, from SHA256SUMS', async (t) => {
  const formula = parseFormula(renderFormula(release));
  t.equal(formula.version, version);
  t.same(formula.archives.map(({ os, arch }) => `${os}-${arch}`).sort(), [
    'darwin-arm64',
    'darwin-x64',
    'linux-arm64',
    'linux-x64',
  ]);
  for (const archive of formula.archives) {
    const name = `mcp-bash-${version}-${archive.os}-${archive.arch}.tar.gz`;
    t.equal(archive.url, `${baseUrl}/${name}`);
    t.equal(archive.sha256, sums.get(name), `${name}'s hash`);
  }
  t.match(formula.test, /shell_output\("#\{bin\}\/mcp-bash --version"\)/, 'test do runs mcp-bash --version');
  t.match(formula.test, /assert_match "mcp-bash #\{version\}"/);
});

t.test('a release of some platforms renders only those', async (t) => {
  const partial = { ...release, targets: ['linux-x64'] };
  t.same(
    parseFormula(renderFormula(partial)).archives.map(({ os, arch }) => `${os}-${arch}`),
    ['linux-x64'],
  );
  t.equal(renderScoopManifest(partial), null, 'no Windows archive, no Scoop manifest');
});

t.test('the Scoop manifest carries the zip, its hash, and how to get bash', async (t) => {
  const manifest = JSON.parse(renderScoopManifest(release) ?? '{}');
  const zip = archiveName(version, 'win-x64');
  t.equal(manifest.version, version);
  t.same(manifest.architecture['64bit'], {
    url: `${baseUrl}/${zip}`,
    hash: sums.get(zip),
    extract_dir: 'mcp-bash-2.3.4-windows-x64',
  });
  t.equal(manifest.bin, 'mcp-bash.exe');
  t.match(manifest.notes.join(' '), /bash.*Git for Windows.*scoop install git/s);
  t.same(Object.values(manifest.suggest), ['git']);
});

t.test('install.sh is rendered with the version and the download location', async (t) => {
  const script = renderInstallScript({ version, baseUrlTemplate: 'https://mirror.example/v{version}' });
  t.match(script, /^RENDERED_VERSION='2\.3\.4'$/m);
  t.match(script, /^RENDERED_BASE_URL='https:\/\/mirror\.example\/v\{version\}'$/m);
  t.notMatch(script, /@MCPBASH_/);
  t.throws(() => renderInstallScript({ version, baseUrlTemplate: "https://x/'y" }), /single quote/);
});
