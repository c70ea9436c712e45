import { type AnySetting, SECTIONS, type Section } from '../../src/config/setting.js';
import { SETTINGS } from '../../src/config/settings.js';

/** Where a generated table starts and ends in docs/ENV.md. */
const START = (section: Section) => `<!-- settings: ${section} (generated from src/config/settings.ts) -->`;
const END = '<!-- end of generated settings -->';

function defaultCell(setting: AnySetting): string {
  if (setting.defaultDoc !== undefined) return setting.defaultDoc;
  if (setting.kind === 'shell' || typeof setting.defaultValue === 'function') return '—';
  const value = setting.defaultValue;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return '—';
  if (typeof value === 'string') return `\`${value}\``;
  return `${String(value)}${boundsNote(setting)}`;
}

/** A bound a reader would not guess: a minimum above 1, any maximum. */
function boundsNote(setting: AnySetting): string {
  if (setting.kind === 'shell') return '';
  const notes = [
    ...(setting.min !== undefined && setting.min > 1 ? [`at least ${setting.min}`] : []),
    ...(setting.max !== undefined ? [`at most ${setting.max}`] : []),
  ];
  return notes.length > 0 ? ` (${notes.join(', ')})` : '';
}

/** One section's table, as docs/ENV.md shows it. */
function settingsTable(section: Section): string {
  const rows = Object.entries(SETTINGS as Record<string, AnySetting>)
    .filter(([, setting]) => setting.section === section)
    .map(([name, setting]) => `| \`${name}\` | ${defaultCell(setting)} | ${setting.doc} |`);
  return ['| Variable | Default | What it does |', '|---|---|---|', ...rows].join('\n');
}

/**
 * docs/ENV.md with every generated table replaced by the table's current rendering; the
 * prose around them is kept. Throws when a section has no markers (add them by hand once).
 */
export function renderEnvDoc(doc: string): string {
  let result = doc;
  for (const section of SECTIONS) {
    const start = result.indexOf(START(section));
    const end = start < 0 ? -1 : result.indexOf(END, start);
    if (start < 0 || end < 0) throw new Error(`docs/ENV.md has no generated table for "${section}"`);
    result = `${result.slice(0, start)}${START(section)}\n${settingsTable(section)}\n${result.slice(end)}`;
  }
  return result;
}
