import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Test } from 'tap';
import { eventually } from './processes.js';

/** JSON with keys sorted at every level, written here independently of the server's code. */
function canonical(value: unknown): string {
  const sort = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sort);
    if (item === null || typeof item !== 'object') return item;
    return Object.fromEntries(
      Object.keys(item)
        .sort()
        .map((key) => [key, sort((item as Record<string, unknown>)[key])]),
    );
  };
  return JSON.stringify(sort(value));
}

export interface RegistryFile {
  readonly generatedAt: string;
  readonly items: Array<Record<string, unknown>>;
  readonly hash: string;
}

/**
 * Reads `.registry/<file>.json` and checks seed 003's envelope: `{format_version: 1,
 * version: 1, generatedAt (UTC ISO 8601), items, hash (SHA-256 hex of the canonical
 * items), total}`.
 */
function checkRegistryEnvelope(t: Test, path: string): RegistryFile {
  const envelope = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & RegistryFile;
  t.match(
    envelope,
    { format_version: 1, version: 1, generatedAt: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, hash: /^[0-9a-f]{64}$/ },
    `${path}: the envelope`,
  );
  t.ok(Array.isArray(envelope.items), 'items is an array');
  t.equal(envelope.total, envelope.items.length, 'total counts the items');
  t.equal(
    envelope.hash,
    createHash('sha256').update(canonical(envelope.items)).digest('hex'),
    'hash is the SHA-256 of the canonical items',
  );
  return envelope;
}

/**
 * Waits until the server has written `.registry/<file>.json` with items that satisfy
 * `ready` (a server writes it about a second after a scan, off the request path, or at its
 * stop), then checks it as checkRegistryEnvelope does. Fails the test on a timeout.
 */
export async function writtenRegistryFile(
  t: Test,
  path: string,
  ready: (items: RegistryFile['items']) => boolean = () => true,
  timeoutMs = 5000,
): Promise<RegistryFile> {
  const current = () => {
    try {
      const items = (JSON.parse(readFileSync(path, 'utf8')) as RegistryFile).items;
      return Array.isArray(items) && ready(items);
    } catch {
      return false; // not written yet
    }
  };
  t.ok(await eventually(current, timeoutMs), `${path} written within ${timeoutMs} ms`);
  return checkRegistryEnvelope(t, path);
}
