import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FrameworkHome } from '../../assets/framework-home.js';
import type { ProjectLayout } from '../../project/project-layout.js';
import { serverMeta } from '../../schemas/meta-files.js';
import { readTemplate } from '../scaffold/template-files.js';
import { type CheckContext, checkSchema, readJsonObject } from './validation-report.js';

/** The description `mcp-bash new` / `init` write, a placeholder (undefined if the template cannot be read). */
function scaffoldDescription(home: FrameworkHome): string | undefined {
  try {
    const template = JSON.parse(readTemplate(home, 'server', 'server.meta.json')) as { description?: unknown };
    return typeof template.description === 'string' ? template.description : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `server.d/server.meta.json`: a missing file is a warning (defaults apply), a broken one an
 * error, the scaffold's placeholder description a warning (clients show the description).
 */
export function checkServerMeta(ctx: CheckContext, layout: ProjectLayout, home: FrameworkHome): void {
  const path = join(layout.serverDir, 'server.meta.json');
  if (!existsSync(path)) {
    ctx.report.add(
      'warning',
      'server',
      "missing: the server is named after the directory (create it with 'mcp-bash init')",
      { file: path },
    );
    return;
  }
  const meta = readJsonObject(ctx, 'server', path);
  if (!meta) return;
  if (!checkSchema(ctx, 'server', serverMeta, meta, path)) return;
  if (typeof meta.description === 'string' && meta.description === scaffoldDescription(home))
    ctx.report.add(
      'warning',
      'server',
      "still the placeholder of 'mcp-bash new': say in one line what this server offers (clients show it)",
      { file: path, field: '/description' },
    );
  // The name the server uses: a "name" it ignores (not a string) leaves the directory's.
  const named = typeof meta.name === 'string' && meta.name.trim() !== '';
  const version = typeof meta.version === 'string' ? ` ${meta.version}` : '';
  const server = named ? `"${meta.name}"` : `"${basename(layout.root)}" (named after its directory)`;
  ctx.report.add('info', 'server', `server ${server}${version}`, { file: path });
}
