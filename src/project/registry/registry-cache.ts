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
  /** The discovery rules that made it (2.x, D284): items from other rules are never reused. */
  readonly rules?: string;
}

export interface CachedRegistry<T> {
  readonly envelope: RegistryEnvelope<T>;
  /** When it was generated (ms since the epoch). */
  readonly generatedAtMs: number;
}

/** A registry cache file as read: the registry, or why it cannot be used. */
export type RegistryCacheRead<T> = { readonly cache: CachedRegistry<T> } | { readonly reason: string };

/** Reads a registry cache file, saying why one that is missing, oversized, unparsable or wrongly shaped is not used. */
export function inspectRegistryCache<T>(path: string, maxBytes: number): RegistryCacheRead<T> {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > maxBytes) return { reason: `${size} bytes, over the ${maxBytes}-byte limit` };
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { reason: `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let envelope: Partial<RegistryEnvelope<T>>;
  try {
    envelope = JSON.parse(text) as Partial<RegistryEnvelope<T>>;
  } catch (error) {
    return { reason: `not valid JSON (${(error as Error).message})` };
  }
  if (envelope === null || typeof envelope !== 'object' || envelope.version !== 1)
    return { reason: 'not a registry: "version" is not 1' };
  if (!Array.isArray(envelope.items)) return { reason: 'not a registry: "items" is not an array' };
  if (typeof envelope.hash !== 'string') return { reason: 'not a registry: "hash" is not a string' };
  const generatedAtMs = Date.parse(String(envelope.generatedAt));
  return {
    cache: {
      envelope: { ...envelope, total: envelope.items.length } as RegistryEnvelope<T>,
      generatedAtMs: Number.isFinite(generatedAtMs) ? generatedAtMs : 0,
    },
  };
}

/**
 * Reads a registry cache file. Missing, oversized, unparsable or wrongly shaped files are
 * ignored (undefined): the caller rescans instead of trusting them.
 */
export function readRegistryCache<T>(path: string, maxBytes: number): CachedRegistry<T> | undefined {
  const read = inspectRegistryCache<T>(path, maxBytes);
  return 'cache' in read ? read.cache : undefined;
}

/** Serialises an envelope; the caller checks the size before writing. */
export function serializeRegistry<T>(
  items: T[],
  hash: string,
  generatedAt: Date,
  { fingerprint, rules }: Pick<RegistryEnvelope<T>, 'fingerprint' | 'rules'> = {},
): string {
  const envelope: RegistryEnvelope<T> = {
    format_version: 1,
    version: 1,
    generatedAt: generatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    items,
    hash,
    total: items.length,
    ...(fingerprint === undefined ? {} : { fingerprint }),
    ...(rules === undefined ? {} : { rules }),
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
