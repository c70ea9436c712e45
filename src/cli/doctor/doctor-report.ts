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

/** Compares dotted versions numerically (`2.0.0` vs `1.12`); a prerelease suffix is ignored. Undefined when one is not a version. */
export function compareVersions(a: string, b: string): number | undefined {
  const parse = (text: string) => {
    const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text.trim());
    return match ? [match[1], match[2], match[3]].map((part) => Number(part ?? 0)) : undefined;
  };
  const left = parse(a);
  const right = parse(b);
  if (!left || !right) return undefined;
  for (let index = 0; index < 3; index += 1) {
    const diff = (left[index] as number) - (right[index] as number);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
