import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ProjectLayout } from '../../project/project-layout.js';
import { serverMeta } from '../../schemas/meta-files.js';
import { type CheckContext, checkSchema, readJsonObject } from './validation-report.js';

/** `server.d/server.meta.json`: a missing file is a warning (defaults apply), a broken one an error. */
export function checkServerMeta(ctx: CheckContext, layout: ProjectLayout): void {
  const path = join(layout.serverDir, 'server.meta.json');
  if (!existsSync(path)) {
    ctx.report.warning('server', "missing: the server is named after the directory (create it with 'mcp-bash init')", {
      file: path,
    });
    return;
  }
  const meta = readJsonObject(ctx, 'server', path);
  if (!meta) return;
  if (!checkSchema(ctx, 'server', serverMeta, meta, path)) return;
  // The name the server uses: a "name" it ignores (not a string) leaves the directory's.
  const named = typeof meta.name === 'string' && meta.name.trim() !== '';
  const version = typeof meta.version === 'string' ? ` ${meta.version}` : '';
  const server = named ? `"${meta.name}"` : `"${basename(layout.root)}" (named after its directory)`;
  ctx.report.info('server', `server ${server}${version}`, { file: path });
}
