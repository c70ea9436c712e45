/** Exit statuses every command shares; commands may add their own documented ones. */
export const ExitCode = {
  Ok: 0,
  /** The command ran and found a problem (validation errors, unhealthy, tool failed). */
  Failure: 1,
  /** The command line itself is wrong: unknown command or flag, missing argument. */
  Usage: 2,
} as const;

/** An expected CLI failure: printed as one message (plus a hint) without a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.Failure,
    /** What to do next, printed on its own line. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A malformed command line: the message is followed by the command's usage line. */
export class UsageError extends CliError {
  constructor(
    message: string,
    readonly usage: string,
    exitCode: number = ExitCode.Usage,
  ) {
    super(message, exitCode);
    this.name = 'UsageError';
  }

  /** The same error with the exit status a command documents for usage errors. */
  withExitCode(exitCode: number): UsageError {
    return new UsageError(this.message, this.usage, exitCode);
  }
}
