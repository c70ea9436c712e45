/** One thing `doctor` noticed; `fixable` ones come with an action `--fix` can take. */
export interface Finding {
  readonly id: string;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly fixable: boolean;
  readonly suggestedCommand: string | null;
}

/** A repair: proposed by default and with --dry-run, applied with --fix. */
export interface RepairAction {
  readonly id: string;
  readonly message: string;
  /** The shell command doing the same by hand, when there is one. */
  readonly command: string | null;
  apply(): void;
}

/** The outcome of an applied repair. */
export interface ActionTaken {
  readonly id: string;
  readonly message: string;
  readonly command: string | null;
  readonly ok: boolean;
  readonly error?: string;
}

/** Findings, repairs and the facts each check gathered (the `--json` sections). */
export class DoctorReport {
  readonly findings: Finding[] = [];
  readonly actions: RepairAction[] = [];
  readonly sections: Record<string, unknown> = {};

  add(
    id: string,
    severity: Finding['severity'],
    message: string,
    options: { suggestedCommand?: string; action?: RepairAction } = {},
  ): void {
    this.findings.push({
      id,
      severity,
      message,
      fixable: options.action !== undefined,
      suggestedCommand: options.suggestedCommand ?? options.action?.command ?? null,
    });
    if (options.action) this.actions.push(options.action);
  }

  count(severity: Finding['severity']): number {
    return this.findings.filter((finding) => finding.severity === severity).length;
  }
}
