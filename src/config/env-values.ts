/**
 * An environment as the code passes it around: the process's (main.ts), a test's, or the
 * launch environment run-tool builds. Settings are read from it once, by config.ts; the
 * rest of the code passes it on to the processes it starts.
 */
export type Env = Readonly<Record<string, string | undefined>>;
