import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Parser } from 'tar';
import { type AssetBundle, ensureExtracted } from '../../assets/extract-archive.js';
import type { FrameworkHome } from '../../assets/framework-home.js';

/** How an extracted framework home compares with the archive inside this binary. */
export interface AssetIntegrity {
  /** False when the home is not an extraction (MCPBASH_HOME pointing at a source tree). */
  readonly checked: boolean;
  readonly files: number;
  readonly missing: string[];
  readonly modified: string[];
}

interface ArchiveFile {
  readonly path: string;
  readonly sha256: string;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Every file of the embedded archive with its hash (parsed in memory, synchronously). */
function archiveFiles(bundle: AssetBundle): ArchiveFile[] {
  const files: ArchiveFile[] = [];
  const parser = new Parser({
    onReadEntry: (entry) => {
      if (entry.type !== 'File') {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => files.push({ path: entry.path, sha256: sha256(Buffer.concat(chunks)) }));
    },
  });
  parser.end(bundle.archive());
  return files;
}

/**
 * Compares every file of the framework home with the embedded archive, byte for byte (by
 * SHA-256): the archive is the manifest, so nothing else has to be shipped or trusted.
 */
export function checkAssetIntegrity(home: FrameworkHome, bundle: AssetBundle): AssetIntegrity {
  if (home.origin === 'env') return { checked: false, files: 0, missing: [], modified: [] };
  const missing: string[] = [];
  const modified: string[] = [];
  const files = archiveFiles(bundle);
  for (const file of files) {
    let content: Buffer;
    try {
      content = readFileSync(join(home.root, file.path));
    } catch {
      missing.push(file.path);
      continue;
    }
    if (sha256(content) !== file.sha256) modified.push(file.path);
  }
  return { checked: true, files: files.length, missing, modified };
}

/**
 * Replaces a damaged extraction with a fresh one: the old directory is moved aside
 * (atomically) and removed, then the archive is extracted again in its place.
 */
export function reextractAssets(home: FrameworkHome, bundle: AssetBundle): string {
  const aside = `${home.root}.damaged-${process.pid}`;
  renameSync(home.root, aside);
  rmSync(aside, { recursive: true, force: true });
  return ensureExtracted(dirname(home.root), bundle).dir;
}
