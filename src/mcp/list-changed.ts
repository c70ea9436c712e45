import type { Session } from './session.js';

export type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * Sends `notifications/<kind>/list_changed` when a list's hash moves away from the one the
 * client could last have seen. The first hash observed is the baseline: a fresh session is
 * not told that lists it has not fetched yet "changed" (decision D28).
 */
export class ListChangedNotifier {
  private readonly seen = new Map<ListKind, string>();

  constructor(
    private readonly session: Session,
    private readonly notify: (method: string) => void,
  ) {}

  observe(kind: ListKind, hash: string): void {
    const previous = this.seen.get(kind);
    this.seen.set(kind, hash);
    if (previous === undefined || previous === hash) return;
    if (this.session.isReady && this.session.features.listChanged) {
      this.notify(`notifications/${kind}/list_changed`);
    }
  }
}
