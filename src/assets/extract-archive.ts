import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { UnpackSync } from 'tar';

/** An archive of framework files and the identity that names its extraction directory. */
export interface AssetBundle {
  readonly version: string;
  readonly contentHash: string;
  readonly fileCount: number;
  /** Archive path of a file every complete extraction holds (checked on the fast path). */
  readonly sentinel: string;
  /** The gzipped tar; decoded only when an extraction is needed. */
  archive(): Buffer;
}

/** Written last into an extraction: its presence and content mean "complete". */
export const MARKER_FILE = '.mcpbash-assets.json';

interface AssetMarker {
  version: string;
  contentHash: string;
  fileCount: number;
  extractedAt: string;
}

const STAGING_MAX_AGE_MS = 60 * 60 * 1000;
const INSTALL_ATTEMPTS = 5;

/** The directory name of one extraction: `<version>-<contenthash>`. */
export function extractionName(bundle: AssetBundle): string {
  return `${bundle.version}-${bundle.contentHash}`;
}

/** True when `dir` holds a complete extraction of exactly this bundle. */
export function isCompleteExtraction(dir: string, bundle: AssetBundle): boolean {
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER_FILE), 'utf8')) as Partial<AssetMarker>;
    return (
      marker.contentHash === bundle.contentHash &&
      marker.version === bundle.version &&
      existsSync(join(dir, bundle.sentinel))
    );
  } catch {
    return false;
  }
}

function isErrno(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

function unpackInto(dir: string, archive: Buffer): void {
  // strict: a damaged archive must fail loudly rather than leave a partial home behind.
  new UnpackSync({ cwd: dir, strict: true, preservePaths: false }).end(archive);
}

/** Moves a finished staging dir into place; concurrent first runs may race here. */
function installAtomically(staging: string, target: string, bundle: AssetBundle): void {
  for (let attempt = 0; attempt < INSTALL_ATTEMPTS; attempt += 1) {
    try {
      renameSync(staging, target);
      return;
    } catch (error) {
      if (!isErrno(error, 'EEXIST', 'ENOTEMPTY', 'ENOTDIR', 'EPERM', 'EACCES', 'EBUSY')) throw error;
    }
    // Another run finished first: its copy is identical, use it.
    if (isCompleteExtraction(target, bundle)) return;
    // A partial or corrupt leftover: move it aside (atomic) and retry.
    const stale = `${target}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(target, stale);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) continue;
      throw error;
    }
    rmSync(stale, { recursive: true, force: true });
  }
  throw new Error(`could not install framework files at ${target} after ${INSTALL_ATTEMPTS} attempts`);
}

/** Removes staging dirs that crashed runs left behind (best effort, only old ones). */
function removeAbandonedStaging(parent: string, name: string): void {
  try {
    for (const entry of readdirSync(parent)) {
      if (!entry.startsWith(`.${name}.tmp-`) && !entry.startsWith(`${name}.stale-`)) continue;
      const path = join(parent, entry);
      if (Date.now() - statSync(path).mtimeMs > STAGING_MAX_AGE_MS) rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // Cleanup is a courtesy; never fail an extraction over it.
  }
}

/**
 * Ensures `parent/<version>-<hash>/` holds a complete copy of the bundle and returns its path.
 * The fast path is one small read and one stat. Otherwise the archive is unpacked into a
 * private staging dir beside the target and renamed into place, so readers never see a
 * half-written tree and concurrent first runs all succeed with one copy.
 */
export function ensureExtracted(parent: string, bundle: AssetBundle): { dir: string; extracted: boolean } {
  const name = extractionName(bundle);
  const target = join(parent, name);
  if (isCompleteExtraction(target, bundle)) return { dir: target, extracted: false };

  mkdirSync(parent, { recursive: true });
  removeAbandonedStaging(parent, name);
  const staging = mkdtempSync(join(parent, `.${name}.tmp-`));
  try {
    unpackInto(staging, bundle.archive());
    const marker: AssetMarker = {
      version: bundle.version,
      contentHash: bundle.contentHash,
      fileCount: bundle.fileCount,
      extractedAt: new Date().toISOString(),
    };
    writeFileSync(join(staging, MARKER_FILE), `${JSON.stringify(marker, null, 2)}\n`);
    installAtomically(staging, target, bundle);
    return { dir: target, extracted: true };
  } finally {
    if (existsSync(staging) && basename(staging) !== name) rmSync(staging, { recursive: true, force: true });
  }
}
