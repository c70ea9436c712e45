import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
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

function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function walk(dir: string, base: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, base, out);
    else out.push(relative(base, path).split(sep).join('/'));
  }
}

/** Every file of the tree (vendor.json excluded) with its SHA-256, in sorted order. */
export function treeFileHashes(dir: string): Record<string, string> {
  const paths: string[] = [];
  walk(dir, dir, paths);
  const hashes: Record<string, string> = {};
  for (const path of paths.filter((path) => path !== VENDOR_MANIFEST).sort()) hashes[path] = fileHash(join(dir, path));
  return hashes;
}

/** 1.x's tree hash: SHA-256 over the sorted `relpath:filehash` lines. */
export function treeHash(files: Readonly<Record<string, string>>): string {
  const lines = Object.keys(files)
    .sort()
    .map((path) => `${path}:${files[path]}\n`)
    .join('');
  return createHash('sha256').update(lines).digest('hex');
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

/** How a tree differs from its vendor.json: files changed, missing or added (by path). */
export interface TreeDifference {
  readonly matches: boolean;
  readonly changed: string[];
  readonly missing: string[];
  readonly added: string[];
}

/** Compares a tree with what vendor.json recorded; `matches` is the 1.x check (the tree hash). */
export function compareTree(dir: string, manifest: Partial<VendorManifest>): TreeDifference {
  const now = treeFileHashes(dir);
  const recorded = isObject(manifest.files) ? (manifest.files as Record<string, string>) : {};
  return {
    matches: treeHash(now) === manifest.sha256,
    changed: Object.keys(now).filter((path) => path in recorded && recorded[path] !== now[path]),
    missing: Object.keys(recorded).filter((path) => !(path in now)),
    added: Object.keys(now).filter((path) => !(path in recorded)),
  };
}
