import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { titleFromName } from '../../content/display-names.js';
import { toolUiDir } from '../../project/ui/ui-discovery.js';
import { uiResourceUri } from '../../project/ui/ui-uri.js';
import { starterPage } from '../../ui-templates/starter-page.js';
import { CliError } from '../cli-error.js';
import { projectRelative, type ScaffoldInput, type ScaffoldResult } from './scaffold-kinds.js';
import { FILE_MODE, refuseExisting, writeFromTemplate, writeNewFile } from './template-files.js';

/** Writes index.html (a working starter view) and ui.meta.json into `dir`; README.md too for standalone UIs. */
function writeUiFiles(input: ScaffoldInput, dir: string, name: string, withReadme: boolean): string[] {
  const { root } = input.project.layout;
  const targets = [join(dir, 'index.html'), join(dir, 'ui.meta.json'), ...(withReadme ? [join(dir, 'README.md')] : [])];
  refuseExisting(targets, (path) => projectRelative(root, path));
  const values = { __NAME__: name, __TITLE__: titleFromName(name) };
  writeNewFile(join(dir, 'index.html'), starterPage(titleFromName(name)), FILE_MODE);
  writeFromTemplate(input.home, 'ui', 'ui.meta.json', join(dir, 'ui.meta.json'), values);
  if (withReadme) writeFromTemplate(input.home, 'ui', 'README.md', join(dir, 'README.md'), values);
  return targets.map((path) => projectRelative(root, path));
}

/**
 * `scaffold ui <name>`: a standalone view in `ui/<name>/` (index.html, ui.meta.json,
 * README.md); a tool shows it by naming its URI in `_meta.ui.resourceUri`.
 */
export function scaffoldStandaloneUi(input: ScaffoldInput): ScaffoldResult {
  const dir = join(input.project.layout.uiDir, input.name);
  refuseExisting([dir], (path) => `${projectRelative(input.project.layout.root, path)}/`);
  const created = writeUiFiles(input, dir, input.name, true);
  const uri = uiResourceUri(input.project.identity.info.name, input.name);
  return {
    created,
    notes: [`Its URI is ${uri}; a tool shows it with "_meta": {"ui": {"resourceUri": "${uri}"}}.`],
  };
}

/**
 * `scaffold ui --tool <tool>` (and `scaffold tool <name> --ui`): a view in `tools/<tool>/ui/`,
 * which the tool points at by itself (the server adds `_meta.ui.resourceUri`).
 */
export function scaffoldToolUi(input: ScaffoldInput, tool: string): ScaffoldResult {
  const { toolsDir, root } = input.project.layout;
  const toolDir = join(toolsDir, tool);
  if (!existsSync(toolDir) || !statSync(toolDir).isDirectory())
    throw new CliError(
      `${projectRelative(root, toolDir)}/ does not exist`,
      1,
      `Create the tool first ('mcp-bash scaffold tool ${tool} --ui' makes both).`,
    );
  const created = writeUiFiles(input, toolUiDir(toolsDir, tool), tool, false);
  const uri = uiResourceUri(input.project.identity.info.name, tool);
  return { created, notes: [`The tool's view is ${uri}: clients with MCP Apps show it with the tool's results.`] };
}
