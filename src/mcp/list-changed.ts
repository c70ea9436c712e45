import type { RegistryKind } from '../project/registry/registry-store.js';
import type { Session } from './session.js';

export type ListKind = 'tools' | 'resources' | 'prompts';

/** The list a registry feeds: templates and UI resources are announced as `resources`. */
export function listOfKind(kind: RegistryKind): ListKind {
  return kind === 'resourceTemplates' || kind === 'ui' ? 'resources' : kind;
}

/**
 * Sends `notifications/<kind>/list_changed` when a list's hash moves away from the one the
 * client could last have seen. The first hash observed is the baseline: a fresh session is
 * not told that lists it has not fetched yet "changed" (decision D28).
 */
export class ListChangedNotifier {
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly session: Session,
    private readonly notify: (method: string) => void,
  ) {}

  /**
   * `source` names the registry the hash belongs to when several feed one list (resources
   * and resource templates both announce `resources`); each is compared with itself.
   */
  observe(kind: ListKind, hash: string, source: string = kind): void {
    const previous = this.seen.get(source);
    this.seen.set(source, hash);
    if (previous === undefined || previous === hash) return;
    if (this.session.isReady && this.session.features.listChanged) {
      this.notify(`notifications/${kind}/list_changed`);
    }
  }
}
