import type { Palette } from '../../cli/terminal.js';
import { plural } from '../../text/plural.js';
import type { BundleFields } from './bundle-fields.js';
import type { LeftOut } from './project-files.js';
import type { ProjectInventory } from './project-inventory.js';
import type { ServerLaunch } from './server-launch.js';
import type { ArchiveEntry } from './zip-writer.js';

/** What was built, for the summary. */
export interface BuiltBundle {
  readonly path: string;
  readonly bytes: number;
  readonly fields: BundleFields;
  readonly inventory: ProjectInventory;
  readonly launch: ServerLaunch;
  readonly platforms: readonly string[];
  readonly entries: readonly ArchiveEntry[];
}

/** `612.3 KiB`, `41.2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The lines printed after a bundle is written (stdout). */
export function bundleSummary(built: BuiltBundle, colors: Palette): string {
  const { fields, inventory } = built;
  const registry = fields.staticRegistry
    ? `static registry: ` +
      `${inventory.registryEntries.map((entry) => entry.path.replace('server/.registry/', '')).join(', ') || 'none'}`
    : 'registry discovered at start-up (MCPB_STATIC=false)';
  const rows: Array<[string, string]> = [
    ['server', `${fields.name} ${fields.version} ("${fields.displayName}")`],
    ['author', fields.author ? fields.author.name : '-'],
    ['runtime', built.launch.description],
    ['platforms', built.platforms.join(', ')],
    [
      'offers',
      [
        plural(inventory.tools.length, 'tool'),
        plural(inventory.resources.length, 'resource'),
        plural(inventory.resourceTemplates.length, 'resource template'),
        plural(inventory.prompts.length, 'prompt'),
        ...(inventory.uiResources.length > 0 ? [plural(inventory.uiResources.length, 'UI view')] : []),
      ].join(', '),
    ],
    ['registry', registry],
    ['files', `${built.entries.length}`],
  ];
  const lines = [
    `${colors.green('Bundle written:')} ${built.path} (${formatBytes(built.bytes)})`,
    ...rows.map(([label, value]) => `  ${label.padEnd(10)}${value}`),
    '',
    `Install it by opening the file with Claude Desktop (or another MCPB client); 'npx @anthropic-ai/mcpb info ` +
      `${built.path}' shows its details.`,
    '',
  ];
  return lines.join('\n');
}

/** `--verbose`: where each field came from and every file in the archive. */
export function verboseDetails(
  fields: BundleFields,
  entries: readonly ArchiveEntry[],
  leftOut: readonly LeftOut[] = [],
): string {
  const sources = Object.entries(fields.sources).map(([field, source]) => `  ${field.padEnd(22)}${source}`);
  const files = [...entries]
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .map((entry) => `  ${entry.mode.toString(8)} ${entry.path}`);
  const excluded = leftOut.map((item) => `  ${item.path}: ${item.reason}`);
  return [
    'Fields (others are defaults):',
    ...sources,
    'Files:',
    ...files,
    ...(excluded.length > 0 ? ['Left out:', ...excluded] : []),
    '',
  ].join('\n');
}
