import type { RootEntry } from '../project/roots.js';

/**
 * The MCP roots tools see. Starts with the fallback roots (MCPBASH_ROOTS, config/roots.json,
 * else the project root as an implicit stand-in); the roots handler replaces them with the
 * client's when it has some. Tool calls wait (bounded) for the exchange with the client.
 */
export class RootsState {
  private roots: readonly RootEntry[];
  /** The roots are the project-root stand-in, not something anyone configured. */
  private implicit: boolean;
  private settle: (() => void) | undefined;
  private settled: Promise<void> = Promise.resolve();

  /**
   * `configured` are the operator's roots (undefined when there are none); then
   * `implicitRoot` is used, but never counts as configured (see {@link configured}).
   */
  constructor(
    configured: readonly RootEntry[] | undefined,
    implicitRoot: RootEntry,
    private readonly waitMs = 5000,
  ) {
    this.roots = configured ?? [implicitRoot];
    this.implicit = configured === undefined;
  }

  /** Marks the roots as about to change (a roots/list request is due or in flight). */
  beginUpdate(): void {
    if (this.settle) return;
    this.settled = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** Replaces the roots with the client's (or keeps them, given undefined) and releases waiting calls. */
  finishUpdate(roots?: readonly RootEntry[]): void {
    if (roots) {
      this.roots = roots;
      this.implicit = false;
    }
    this.settle?.();
    this.settle = undefined;
  }

  /** The roots, after the pending update if one is in flight (at most `waitMs`). */
  async current(): Promise<readonly RootEntry[]> {
    if (this.settle) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.settled,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.waitMs);
        }),
      ]);
      clearTimeout(timer);
    }
    return this.roots;
  }

  /**
   * The roots someone chose (the client's, MCPBASH_ROOTS or config/roots.json), after the
   * pending update like {@link current}; empty while only the implicit project root stands in.
   * The file resource provider may read inside these, never inside the implicit root.
   */
  async configured(): Promise<readonly RootEntry[]> {
    const roots = await this.current();
    return this.implicit ? [] : roots;
  }

  get snapshot(): readonly RootEntry[] {
    return this.roots;
  }
}
