import { isObject } from '../../json/objects.js';

/** The kinds register.json and register.sh can provide. */
export const MANUAL_KINDS = ['tools', 'resources', 'resourceTemplates', 'prompts', 'completions'] as const;
export type ManualKind = (typeof MANUAL_KINDS)[number];

/** Raw entries per kind: absent or null means "discover", an array (even empty) replaces discovery. */
export type RawRegistrations = Partial<Record<ManualKind, unknown[] | null>>;

/** Turns a kind's raw entries into registry items, or reports why they are invalid. */
export type EntryNormalizer = (entries: unknown[]) => { items: unknown[]; errors: string[]; warnings: string[] };
export type ManualNormalizers = Partial<Record<ManualKind, EntryNormalizer>>;

/** Where metadata being normalised comes from. */
export interface NormalizeContext {
  /** Names the source in warnings (a path, or `tools[3]`). */
  readonly owner: string;
  /** Where relative icon paths start (the metadata file's directory). */
  readonly iconBase: string;
  /** The name when the metadata gives none. */
  readonly defaultName?: string;
  /** The file (script, template, content) relative to its kind's directory. */
  readonly path?: string;
}

/** What a normaliser makes of one entry or metadata file: the item, or why there is none. */
export type Normalized<T> = { item?: T; error?: string; warnings: string[] };

/** A kind's entries normalised one by one (owner `kind[i]`); an entry that is no object is `notObject`. */
export function normalizeEach<T>(
  kind: ManualKind,
  entries: unknown[],
  normalize: (raw: Record<string, unknown>, owner: string) => Normalized<T>,
  notObject = 'must be an object',
): { items: T[]; errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const items: T[] = [];
  entries.forEach((entry, index) => {
    const owner = `${kind}[${index}]`;
    const normalized = isObject(entry) ? normalize(entry, owner) : { error: `${owner} ${notObject}`, warnings: [] };
    warnings.push(...normalized.warnings);
    if (normalized.error) errors.push(normalized.error);
    else if (normalized.item) items.push(normalized.item);
  });
  return { items, errors, warnings };
}
