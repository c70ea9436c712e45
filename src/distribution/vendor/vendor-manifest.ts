import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { sha256Hex } from '../../json/canonical-json.js';
import { isObject } from '../../json/objects.js';

/** `vendor.json` in a vendored tree: 1.x's four keys, plus the runtime kind and each file's hash. */
export interface VendorManifest {
  readonly version: string;
  /** SHA-256 of the sorted `relpath:filehash\n` lines of every file but vendor.json. */
  readonly sha256: string;
  readonly vendored_from: string;
  readonly vendored_at: string;
  readonly runtime: 'binary' | 'node';
  /** relpath -> SHA-256, so `--verify` can say which file changed. */
  readonly files: Record<string, string>;
}

export const VENDOR_MANIFEST = 'vendor.json';

/** Every file of the tree (vendor.json excluded) with its SHA-256, in sorted order. */
export function treeFileHashes(dir: string): Record<string, string> {
  const paths = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (path) => path !== VENDOR_MANIFEST && !statSync(join(dir, path)).isDirectory(),
  );
  const hashes: Record<string, string> = {};
  for (const path of paths.sort()) hashes[path.split(sep).join('/')] = sha256Hex(readFileSync(join(dir, path)));
  return hashes;
}

/** 1.x's tree hash: SHA-256 over the sorted `relpath:filehash` lines. */
export function treeHash(files: Readonly<Record<string, string>>): string {
  return sha256Hex(
    Object.keys(files)
      .sort()
      .map((path) => `${path}:${files[path]}\n`)
      .join(''),
  );
}

/** vendor.json of a tree, or undefined when it is missing or unreadable. */
export function readVendorManifest(dir: string): Partial<VendorManifest> | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, VENDOR_MANIFEST), 'utf8'));
    return isObject(parsed) ? (parsed as Partial<VendorManifest>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How a tree differs from what vendor.json recorded: files changed, missing or added (by
 * path); `matches` is the 1.x check (the tree hash).
 */
export function compareTree(dir: string, manifest: Partial<VendorManifest>) {
  const now = treeFileHashes(dir);
  const recorded = isObject(manifest.files) ? (manifest.files as Record<string, string>) : {};
  return {
    matches: treeHash(now) === manifest.sha256,
    changed: Object.keys(now).filter((path) => path in recorded && recorded[path] !== now[path]),
    missing: Object.keys(recorded).filter((path) => !(path in now)),
    added: Object.keys(now).filter((path) => !(path in recorded)),
  };
}
