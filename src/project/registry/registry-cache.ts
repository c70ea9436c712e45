import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The `.registry/<kind>.json` envelope (seed 003), shared by every kind. */
export interface RegistryEnvelope<T> {
  readonly format_version: 1;
  readonly version: 1;
  readonly generatedAt: string;
  readonly items: T[];
  readonly hash: string;
  readonly total: number;
  /** What the scanned files looked like (2.x): lets a restarted server skip the scan. */
  readonly fingerprint?: string;
}

export interface CachedRegistry<T> {
  readonly envelope: RegistryEnvelope<T>;
  /** When it was generated (ms since the epoch). */
  readonly generatedAtMs: number;
}

/**
 * Reads a registry cache file. Missing, oversized, unparsable or wrongly shaped files are
 * ignored (undefined): the caller rescans instead of trusting them.
 */
export function readRegistryCache<T>(path: string, maxBytes: number): CachedRegistry<T> | undefined {
  try {
    if (statSync(path).size > maxBytes) return undefined;
    const envelope = JSON.parse(readFileSync(path, 'utf8')) as Partial<RegistryEnvelope<T>>;
    if (envelope.version !== 1 || !Array.isArray(envelope.items) || typeof envelope.hash !== 'string') return undefined;
    const generatedAtMs = Date.parse(String(envelope.generatedAt));
    return {
      envelope: { ...envelope, total: envelope.items.length } as RegistryEnvelope<T>,
      generatedAtMs: Number.isFinite(generatedAtMs) ? generatedAtMs : 0,
    };
  } catch {
    return undefined;
  }
}

/** Serialises an envelope; the caller checks the size before writing. */
export function serializeRegistry<T>(items: T[], hash: string, generatedAt: Date, fingerprint?: string): string {
  const envelope: RegistryEnvelope<T> = {
    format_version: 1,
    version: 1,
    generatedAt: generatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    items,
    hash,
    total: items.length,
    ...(fingerprint === undefined ? {} : { fingerprint }),
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/** Writes atomically (temp file + rename) so readers never see half a registry. */
export function writeRegistryCache(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}
