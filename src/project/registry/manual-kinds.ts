/** The kinds register.json and register.sh can provide. */
export const MANUAL_KINDS = ['tools', 'resources', 'resourceTemplates', 'prompts', 'completions'] as const;
export type ManualKind = (typeof MANUAL_KINDS)[number];

/** Raw entries per kind: absent or null means "discover", an array (even empty) replaces discovery. */
export type RawRegistrations = Partial<Record<ManualKind, unknown[] | null>>;

/** Turns a kind's raw entries into registry items, or reports why they are invalid. */
export type EntryNormalizer = (entries: unknown[]) => { items: unknown[]; errors: string[]; warnings: string[] };
export type ManualNormalizers = Partial<Record<ManualKind, EntryNormalizer>>;
