import type { RegistryKind } from '../project/registry/registry-store.js';
import type { LoggingLevel, LogSink } from '../spec/logging-levels.js';
import { type ListChangedNotifier, listOfKind } from './list-changed.js';
import type { ServerLog } from './logging.js';

/** A session as the broadcast reaches it. */
export interface BroadcastTarget {
  readonly lists: ListChangedNotifier;
  readonly log: ServerLog;
}

/**
 * What the registries shared by the sessions of one server report, passed to each session:
 * every registry check's hash (each session decides on its own whether its client is told
 * that a list changed, D28), and registry diagnostics (once on stderr, then to each client
 * by its own `logging/setLevel`). A session added late starts from the hashes seen so far,
 * so a change after it joined is announced to it even before the next scan.
 */
export class SessionBroadcast implements LogSink {
  private readonly targets = new Set<BroadcastTarget>();
  private readonly hashes = new Map<RegistryKind, string>();

  /** `stderr` is a log with no client attached: the operator's copy of every diagnostic. */
  constructor(private readonly stderr: ServerLog) {}

  add(target: BroadcastTarget): void {
    this.targets.add(target);
    for (const [kind, hash] of this.hashes) target.lists.observe(listOfKind(kind), hash, kind);
  }

  remove(target: BroadcastTarget): void {
    this.targets.delete(target);
  }

  /** The registries' `onHash`. */
  readonly onHash = (kind: RegistryKind, hash: string): void => {
    this.hashes.set(kind, hash);
    for (const target of this.targets) target.lists.observe(listOfKind(kind), hash, kind);
  };

  readonly warning = (logger: string, message: string): void => this.log('warning', logger, message);

  readonly info = (logger: string, message: string): void => this.log('info', logger, message);

  readonly debug = (logger: string, message: string): void => this.log('debug', logger, message);

  private log(level: LoggingLevel, logger: string, message: string): void {
    this.stderr.log(level, logger, message);
    // The client-only path of each session's log (its level decides), as for a tool's messages.
    for (const target of this.targets) target.log.forwardFromTool({ level, logger, data: message });
  }
}
