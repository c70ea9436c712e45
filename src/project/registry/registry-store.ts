import { itemsHash, sha256Hex } from '../../json/canonical-json.js';
import type { LogSink } from '../../spec/logging-levels.js';
import type { TreeWalk } from '../discovery-files.js';
import { ProjectError } from '../project-error.js';
import { TreeSnapshot } from './fingerprint.js';
import { type CachedRegistry, readRegistryCache, serializeRegistry, writeRegistryCache } from './registry-cache.js';

export type RegistryKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts' | 'ui';

/** What discovery found: items in their final order, and problems worth a warning. */
export interface ScanResult<T> {
  readonly items: T[];
  readonly warnings: readonly string[];
}

/**
 * What register.json / register.sh say about a kind: nothing (auto-discovery), a list that
 * replaces discovery, or an error that fails every request for the kind (no fallback).
 * `key` changes whenever the registration's content does.
 */
export type ManualState<T> =
  | { readonly mode: 'auto'; readonly key: string }
  | { readonly mode: 'manual'; readonly key: string; readonly items: T[]; readonly warnings?: readonly string[] }
  | { readonly mode: 'error'; readonly key: string; readonly message: string };

/** One kind's discovery, as the store needs it. */
export interface RegistrySource<T> {
  readonly kind: RegistryKind;
  /** `.registry/<file>.json` */
  readonly cacheFile: string;
  readonly ttlMs: number;
  /** Files and directories whose change calls for a rescan. */
  readonly watchedPaths: readonly string[];
  /**
   * What part of the watched paths a scan covers, when not all of them (the tools subtree of
   * MCPBASH_REGISTRY_REFRESH_PATH): part of the fingerprint, so that a registry merged from a
   * partial scan is never reused as a full scan of the same files, nor the other way round.
   */
  readonly scope?: string;
  /**
   * `previous`: the registry before this scan (in memory, else the cache file), for partial
   * scans; `tree`: the watched paths as just read for the fingerprint, to reuse.
   */
  scan(previous: () => readonly T[], tree: TreeSnapshot): Promise<ScanResult<T>> | ScanResult<T>;
  manual(): Promise<ManualState<T>>;
}

export interface RegistrySnapshot<T> {
  readonly items: readonly T[];
  readonly hash: string;
  readonly generatedAt: Date;
}

export interface RegistryOptions {
  readonly log: LogSink;
  /** MCPBASH_REGISTRY_MAX_BYTES: a larger serialised registry fails the request. */
  readonly maxBytes: number;
  /** MCPBASH_STATIC_REGISTRY: trust a pre-generated cache without checking for changes. */
  readonly staticMode: boolean;
  /** Write `.registry/*.json` (registry commands may refresh without writing). */
  readonly writeCache: boolean;
  /**
   * Write the cache this long after a scan instead of at once (the server: a file write is
   * ~1 ms, and a client's first lists come in a burst); flushCache() writes it sooner.
   */
  readonly cacheWriteDelayMs?: number;
  /**
   * Names the discovery rules that made a cache (the program's version and its rules'
   * revision): a cache written under other rules is never reused, even for the same files.
   */
  readonly rules?: string;
  /** How watched directories are walked (default: a fresh walk for each check). */
  readonly walk?: (dir: string) => TreeWalk | undefined;
  /** Called after every check with the current hash (list_changed decisions). */
  readonly onHash?: (kind: RegistryKind, hash: string) => void;
}

function snapshotOf<T>(cached: CachedRegistry<T>): RegistrySnapshot<T> {
  return { items: cached.envelope.items, hash: cached.envelope.hash, generatedAt: new Date(cached.generatedAtMs) };
}

/** Registries this large are slow to list and hard for a model to use. */
const LARGE_REGISTRY = 500;

/**
 * A kind's registry with 1.x's caching rules: results are reused for the TTL; after it, a
 * cheap fingerprint of the watched files decides whether to rescan; the result is kept in
 * `.registry/` (with its fingerprint, so a restart skips the scan too); static mode trusts
 * the cache outright. Concurrent callers share one refresh.
 */
export class RegistryStore<T> {
  private current: RegistrySnapshot<T> | undefined;
  private failure: ProjectError | undefined;
  private fingerprint: string | undefined;
  private checkedAt = 0;
  private loadedFromCache = false;
  /** Static mode's cache once read; null when there was no usable one. */
  private staticCache: RegistrySnapshot<T> | null | undefined;
  private refreshing: Promise<RegistrySnapshot<T>> | undefined;
  private cacheWriteWarned = false;
  /** The cache text a delayed write will put in `.registry/`, and its timer. */
  private pendingCache: string | undefined;
  private pendingCacheTimer: NodeJS.Timeout | undefined;
  /** Scan warnings already given: a rescan repeats them, the log should not. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly source: RegistrySource<T>,
    private readonly options: RegistryOptions,
  ) {}

  get kind(): RegistryKind {
    return this.source.kind;
  }

  /** The current registry; `force` rescans whatever the TTL and fingerprint say. */
  snapshot(force = false): Promise<RegistrySnapshot<T>> {
    this.refreshing ??= this.refresh(force).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refresh(force: boolean): Promise<RegistrySnapshot<T>> {
    const now = Date.now();
    if (!force && now - this.checkedAt < this.source.ttlMs) {
      if (this.failure) throw this.failure;
      if (this.current) return this.current;
    }
    // The TTL runs from the start of a check: what changed while it ran is seen by the next.
    try {
      const snapshot = await this.check(force);
      this.failure = undefined;
      this.checkedAt = now;
      this.options.onHash?.(this.source.kind, snapshot.hash);
      return snapshot;
    } catch (error) {
      this.failure =
        error instanceof ProjectError
          ? error
          : ProjectError.failed(`${this.source.kind} registry failed: ${(error as Error).message}`);
      this.checkedAt = now;
      throw this.failure;
    }
  }

  private async check(force: boolean): Promise<RegistrySnapshot<T>> {
    const manual = await this.source.manual();
    if (manual.mode === 'error') throw ProjectError.failed(manual.message);
    // Static mode trusts the cache for discovery only: register.json (data) still decides.
    if (!force && this.options.staticMode && manual.mode === 'auto') {
      const cached = this.loadStatic();
      if (cached) return cached;
    }
    const tree = new TreeSnapshot(this.source.watchedPaths, this.options.walk);
    const fingerprint = sha256Hex(
      `${tree.fingerprint()}\0${manual.key}\0${this.options.rules ?? ''}\0${this.source.scope ?? ''}`,
    );
    if (!force && !this.current && !this.loadedFromCache) this.loadCacheIfCurrent(fingerprint);
    if (!force && this.current && fingerprint === this.fingerprint) return this.current;
    return this.rebuild(manual, fingerprint, tree);
  }

  /**
   * Static mode: the pre-generated cache (format_version 1) is the registry, as long as it
   * is valid; it is read once. Without one, discovery as usual.
   */
  private loadStatic(): RegistrySnapshot<T> | undefined {
    if (this.staticCache === undefined) {
      const cached = readRegistryCache<T>(this.source.cacheFile, this.options.maxBytes);
      this.staticCache = cached?.envelope.format_version === 1 ? snapshotOf(cached) : null;
      this.options.log.debug(
        'mcp.registry',
        this.staticCache
          ? `static registry mode: serving ${this.source.kind} from the pre-generated cache`
          : `static registry mode: no valid ${this.source.kind} cache; discovering instead`,
      );
    }
    if (this.staticCache) this.current = this.staticCache;
    return this.staticCache ?? undefined;
  }

  /** At start-up, a cache written for exactly these files saves the first scan. */
  private loadCacheIfCurrent(fingerprint: string): void {
    this.loadedFromCache = true;
    const cached = readRegistryCache<T>(this.source.cacheFile, this.options.maxBytes);
    if (!cached || cached.envelope.fingerprint !== fingerprint) return;
    if (itemsHash(cached.envelope.items) !== cached.envelope.hash) return;
    this.current = snapshotOf(cached);
    this.fingerprint = fingerprint;
  }

  private async rebuild(
    manual: Exclude<ManualState<T>, { mode: 'error' }>,
    fingerprint: string,
    tree: TreeSnapshot,
  ): Promise<RegistrySnapshot<T>> {
    const result: ScanResult<T> =
      manual.mode === 'manual'
        ? { items: manual.items, warnings: manual.warnings ?? [] }
        : await this.source.scan(() => this.previousItems(), tree);
    for (const warning of result.warnings) this.warnOnce(warning);
    const hash = itemsHash(result.items);
    const generatedAt = new Date();
    const text = serializeRegistry(result.items, hash, generatedAt, {
      fingerprint,
      ...(this.options.rules === undefined ? {} : { rules: this.options.rules }),
    });
    const size = Buffer.byteLength(text);
    if (size > this.options.maxBytes) {
      throw ProjectError.failed(
        `The ${this.source.kind} registry is ${size} bytes, over MCPBASH_REGISTRY_MAX_BYTES (${this.options.maxBytes})`,
        { kind: this.source.kind, bytes: size, limit: this.options.maxBytes },
      );
    }
    if (result.items.length > LARGE_REGISTRY && (this.current?.items.length ?? 0) <= LARGE_REGISTRY) {
      this.options.log.warning(
        'mcp.registry',
        `${result.items.length} ${this.source.kind} registered; above ${LARGE_REGISTRY}, consider manual ` +
          `registration (server.d/register.json) to keep discovery fast`,
      );
    }
    if (this.current?.hash !== hash)
      this.options.log.debug(
        'mcp.registry',
        `${this.source.kind}: ${result.items.length} items, hash ${hash.slice(0, 12)}`,
      );
    this.current = { items: result.items, hash, generatedAt };
    this.fingerprint = fingerprint;
    if (this.options.writeCache) this.scheduleCacheWrite(text);
    return this.current;
  }

  /** Writes a delayed cache file now, if one is waiting (at stop, so no scan is lost). */
  flushCache(): void {
    clearTimeout(this.pendingCacheTimer);
    this.pendingCacheTimer = undefined;
    const text = this.pendingCache;
    this.pendingCache = undefined;
    if (text !== undefined) this.writeCache(text);
  }

  private scheduleCacheWrite(text: string): void {
    const delay = this.options.cacheWriteDelayMs;
    if (delay === undefined) {
      this.writeCache(text);
      return;
    }
    // A later scan's text replaces a waiting one: only the newest registry is written.
    this.pendingCache = text;
    this.pendingCacheTimer ??= setTimeout(() => this.flushCache(), delay).unref();
  }

  /**
   * What the registry held before: in memory, else a valid cache file written under the same
   * discovery rules (a partial scan merges into it; an older build's items must not survive
   * into this one's registry, D284), else nothing.
   */
  private previousItems(): readonly T[] {
    if (this.current) return this.current.items;
    const cached = readRegistryCache<T>(this.source.cacheFile, this.options.maxBytes);
    return cached && cached.envelope.rules === this.options.rules ? cached.envelope.items : [];
  }

  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.options.log.warning('mcp.registry', message);
  }

  private writeCache(text: string): void {
    try {
      writeRegistryCache(this.source.cacheFile, text);
    } catch (error) {
      if (this.cacheWriteWarned) return;
      this.cacheWriteWarned = true;
      this.options.log.warning(
        'mcp.registry',
        `cannot write ${this.source.cacheFile} (${(error as Error).message}); keeping the registry in memory`,
      );
    }
  }
}
