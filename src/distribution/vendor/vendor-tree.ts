import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { shellQuote } from '../../process/shell-quote.js';
import type { ArchiveEntry } from '../bundle/zip-writer.js';
import { treeFileHashes, treeHash, VENDOR_MANIFEST, type VendorManifest } from './vendor-manifest.js';

/** What goes into a vendored tree. */
export interface VendorContent {
  readonly runtime: 'binary' | 'node';
  /** Paths relative to the vendored dir. */
  readonly files: ArchiveEntry[];
}

/** The wrapper's exec line: relative to the project when the vendored dir is inside it. */
export function wrapperText(template: string, root: string, vendorDir: string): string {
  const rel = relative(root, vendorDir);
  const bin =
    rel.startsWith('..') || isAbsolute(rel)
      ? shellQuote(join(vendorDir, 'bin', 'mcp-bash'))
      : `"$here/${rel}/bin/mcp-bash"`;
  return template.split('__VENDOR_BIN__').join(bin);
}

function writeFiles(dir: string, files: readonly ArchiveEntry[]): void {
  for (const file of files) {
    const path = join(dir, ...file.path.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    if (file.data) writeFileSync(path, file.data);
    else copyFileSync(file.source as string, path);
    chmodSync(path, file.mode);
  }
}

/**
 * Writes the tree into a staging dir beside `vendorDir`, adds vendor.json, then swaps it in
 * (an existing tree is moved aside first and removed after), so a failed run leaves the old
 * tree as it was.
 */
export function installVendorTree(
  vendorDir: string,
  content: VendorContent,
  meta: Pick<VendorManifest, 'version' | 'vendored_from' | 'vendored_at'>,
): VendorManifest {
  mkdirSync(dirname(vendorDir), { recursive: true });
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = `${vendorDir}.tmp-${suffix}`;
  const old = `${vendorDir}.old-${suffix}`;
  try {
    writeFiles(staging, content.files);
    const files = treeFileHashes(staging);
    const manifest: VendorManifest = { ...meta, sha256: treeHash(files), runtime: content.runtime, files };
    writeFileSync(join(staging, VENDOR_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const replacing = existsSync(vendorDir);
    if (replacing) renameSync(vendorDir, old);
    try {
      renameSync(staging, vendorDir);
    } catch (error) {
      if (replacing) renameSync(old, vendorDir);
      throw error;
    }
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}
