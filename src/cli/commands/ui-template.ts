import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { isObject } from '../../json/objects.js';
import { renderUiTemplate } from '../../ui-templates/index.js';
import { isTemplateName, TEMPLATE_NAMES } from '../../ui-templates/template-names.js';
import { CliError, ExitCode, UsageError } from '../cli-error.js';
import type { ParsedCommand } from '../command.js';

const usage = `mcp-bash ui-template ${TEMPLATE_NAMES.join('|')} [--config JSON | --config @FILE | --config -]`;

/** `--config` as text: inline JSON, `@FILE`, or `-` for stdin. */
async function configText(value: string | undefined, stdin: Readable): Promise<string> {
  if (value === undefined) return '{}';
  if (value === '-') return text(stdin);
  if (!value.startsWith('@')) return value;
  try {
    return readFileSync(value.slice(1), 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${value.slice(1)}: ${(error as Error).message}`);
  }
}

function parseConfig(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--config is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new CliError('--config must be a JSON object');
  return value;
}

/**
 * `mcp-bash ui-template <template>`: prints the HTML of an MCP Apps UI template, the same a
 * `ui.meta.json` with `template` serves. The SDK's mcp_ui_form and mcp_ui_table run it.
 */

export const command: ParsedCommand = {
  name: 'ui-template',
  summary: 'Print the HTML of an MCP Apps UI template (form, data-table, ...)',
  usage,
  options: { string: ['config'] },
  positionals: [{ name: 'template', missing: 'a template name is required' }],
  details: [
    'Arguments:',
    `  <template>        ${TEMPLATE_NAMES.join(', ')}`,
    'Options:',
    '  --config JSON     the template config (ui.meta.json "config"); @FILE reads a file, - stdin',
    '',
    'The page is self-contained (no network fetches), follows the host theme and talks to the',
    'host over the MCP Apps protocol. docs/UI.md describes each template and its config.',
  ].join('\n'),
  async run(options, context) {
    const name = options.positionals[0] as string;
    if (!isTemplateName(name))
      throw new UsageError(`unknown template "${name}" (templates: ${TEMPLATE_NAMES.join(', ')})`, usage);
    const config = parseConfig(await configText(options.string('config'), context.io.stdin));
    context.io.stdout.write(renderUiTemplate(name, config));
    return ExitCode.Ok;
  },
};
