import type { RootEntry } from '../project/roots.js';

export interface RootsStateOptions {
  /** Whether the client's roots widen what the server reads (D289; false over HTTP by default). */
  readonly trustClientRoots: boolean;
  /** How long a read of the roots waits for a pending exchange with the client. */
  readonly waitMs?: number;
}

/**
 * The MCP roots of a session. Starts with the fallback roots (MCPBASH_ROOTS, config/roots.json,
 * else the project root as an implicit stand-in); the roots handler adds the client's when it
 * has some. Tools see the client's roots; what the server itself reads (the file provider, tool
 * attachments) is widened by them only when they are trusted: over HTTP a client's roots name
 * its own machine's directories (D289). Reads wait (bounded) for a pending exchange.
 */
export class RootsState {
  private readonly fallback: readonly RootEntry[];
  /** The fallback is the project-root stand-in, not something anyone configured. */
  private readonly implicit: boolean;
  private client: readonly RootEntry[] | undefined;
  private settle: (() => void) | undefined;
  private settled: Promise<void> = Promise.resolve();
  private readonly trustClientRoots: boolean;
  private readonly waitMs: number;

  /**
   * `configured` are the operator's roots (undefined when there are none); then
   * `implicitRoot` is used, but never counts as configured (see {@link configured}).
   */
  constructor(configured: readonly RootEntry[] | undefined, implicitRoot: RootEntry, options: RootsStateOptions) {
    this.fallback = configured ?? [implicitRoot];
    this.implicit = configured === undefined;
    this.trustClientRoots = options.trustClientRoots;
    this.waitMs = options.waitMs ?? 5000;
  }

  /** Marks the roots as about to change (a roots/list request is due or in flight). */
  beginUpdate(): void {
    if (this.settle) return;
    this.settled = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** Takes the client's roots (or keeps the roots, given undefined) and releases waiting calls. */
  finishUpdate(roots?: readonly RootEntry[]): void {
    if (roots) this.client = roots;
    this.settle?.();
    this.settle = undefined;
  }

  /** The roots tools see, after the pending update if one is in flight (at most `waitMs`). */
  async current(): Promise<readonly RootEntry[]> {
    await this.pendingUpdate();
    return this.snapshot;
  }

  /**
   * The roots the server itself may read inside (tool attachments), after the pending update:
   * the client's when they are trusted, else the fallback (the implicit project root included).
   */
  async forServerReads(): Promise<readonly RootEntry[]> {
    await this.pendingUpdate();
    return this.client && this.trustClientRoots ? this.client : this.fallback;
  }

  /**
   * The roots someone chose that the server may read inside (the client's when trusted,
   * MCPBASH_ROOTS or config/roots.json), after the pending update; empty while only the
   * implicit project root stands in. The file resource provider may read inside these,
   * never inside the implicit root.
   */
  async configured(): Promise<readonly RootEntry[]> {
    const roots = await this.forServerReads();
    return roots === this.fallback && this.implicit ? [] : roots;
  }

  get snapshot(): readonly RootEntry[] {
    return this.client ?? this.fallback;
  }

  private async pendingUpdate(): Promise<void> {
    if (!this.settle) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.settled,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.waitMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
