/**
 * One row of the configuration table: a variable the binary (or the Bash it ships) reads,
 * its type, default, bounds, what it does, which part uses it, and where docs/ENV.md lists it.
 */

/** The tables of docs/ENV.md, in order. */
export const SECTIONS = [
  'Project and paths',
  'Tools: who may run what, and with which environment',
  'Timeouts, limits and concurrency',
  'Registry',
  'Logging and debugging',
  'Resource providers',
  'Transport and the remote token',
  'Streamable HTTP',
  'JSON tool',
  'CLI commands',
  'Bundles, vendored trees and publishing',
] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * Who reads a variable. The binary's parts: `server` (the MCP server), `tools` (tool calls,
 * in the server and `run-tool`), `registry` (discovery and registries), `providers`
 * (resource providers and completion scripts), `logging`, `project` (where the project and
 * its state live), `json-tool`, and `cli:<command>`. The Bash the binary ships: `sdk`,
 * `provider scripts`, `scaffold scripts`, `launcher` (bundles and vendored trees); the
 * binary does not parse those.
 */
export type Part =
  | 'server'
  | 'tools'
  | 'registry'
  | 'providers'
  | 'logging'
  | 'project'
  | 'json-tool'
  | `cli:${string}`
  | 'sdk'
  | 'provider scripts'
  | 'scaffold scripts'
  | 'launcher';

/** Every part the MCP server is made of (`mcp-bash` with no command reads all their settings). */
export const SERVER_PARTS: readonly Part[] = [
  'server',
  'tools',
  'registry',
  'providers',
  'logging',
  'project',
  'json-tool',
];

/** The parts that are Bash, not the binary: their rows are documentation, never parsed. */
export const SHELL_PARTS: ReadonlySet<Part> = new Set(['sdk', 'provider scripts', 'scaffold scripts', 'launcher']);

/** Reads another setting's value (for defaults that follow another setting). */
export type Read = (name: string) => unknown;

/** What parsing one raw value gave: the value, or the problem and the value used instead. */
export type Parsed<T> = { readonly value: T } | { readonly value: T; readonly problem: string };

interface RowText {
  readonly section: Section;
  readonly usedBy: readonly Part[];
  /** ENV.md's "What it does". */
  readonly doc: string;
  /** ENV.md's "Default", when the default value alone does not say it. */
  readonly defaultDoc?: string;
}

/** A setting the binary parses into a `T`. */
export interface Setting<T> extends RowText {
  readonly kind: 'int' | 'number' | 'bool' | 'string' | 'list' | 'choice' | 'custom';
  readonly defaultValue: T | ((read: Read) => T);
  /** A number setting's bounds (below `min` means the default, above `max` is capped). */
  readonly min?: number;
  readonly max?: number;
  /** Parses a non-empty raw value; the default is passed for the fallback. */
  parse(raw: string, fallback: T): Parsed<T>;
}

/** A variable only the shipped Bash reads: documented, never parsed by the binary. */
export interface ShellSetting extends RowText {
  readonly kind: 'shell';
  readonly defaultDoc: string;
}

export type AnySetting = Setting<unknown> | ShellSetting;

/** The value type of a setting row. */
export type ValueOf<S> = S extends Setting<infer T> ? T : never;
