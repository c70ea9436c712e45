import type { RootEntry } from '../project/roots.js';

/**
 * The MCP roots tools see. Starts with the fallback roots (MCPBASH_ROOTS, config/roots.json,
 * the project root); the roots handler replaces them with the client's when it has some.
 * Tool calls wait (bounded) for the first exchange with the client to finish.
 */
export class RootsState {
  private roots: readonly RootEntry[];
  private settle: (() => void) | undefined;
  private settled: Promise<void> = Promise.resolve();

  constructor(fallback: readonly RootEntry[], private readonly waitMs = 5000) {
    this.roots = fallback;
  }

  /** Marks the roots as about to change (a roots/list request is in flight). */
  beginUpdate(): void {
    if (this.settle) return;
    this.settled = new Promise((resolve) => { this.settle = resolve; });
  }

  /** Replaces the roots (or keeps them, given undefined) and releases waiting calls. */
  finishUpdate(roots?: readonly RootEntry[]): void {
    if (roots) this.roots = roots;
    this.settle?.();
    this.settle = undefined;
  }

  /** The roots, after the pending update if one is in flight (at most `waitMs`). */
  async current(): Promise<readonly RootEntry[]> {
    if (this.settle) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.settled, new Promise<void>((resolve) => { timer = setTimeout(resolve, this.waitMs); })]);
      clearTimeout(timer);
    }
    return this.roots;
  }

  get snapshot(): readonly RootEntry[] {
    return this.roots;
  }
}
