import { TOOL_NAME_PATTERN } from '../../schemas/meta-files.js';

/**
 * Tool names. MCP 2025-11-25 (SEP-986) allows 1-128 ASCII letters, digits, `_`, `-` and `.`;
 * the server serves every such name. Some clients (Claude Desktop, Windsurf) accept only the
 * narrower 1.x rule, so `validate` warns about names outside it, as 1.x did.
 */

/** The rule every client accepts (1.x's, and its `validate` warning). */
const PORTABLE_TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Why `name` cannot be a tool's name, or undefined when MCP allows it. */
export function toolNameProblem(name: string): string | undefined {
  if (TOOL_NAME_PATTERN.test(name)) return undefined;
  return `tool name "${name}" is invalid: MCP allows 1-128 letters, digits, '_', '-' and '.'`;
}

/** A warning for names MCP allows but some clients reject (dots, more than 64 characters). */
export function toolNamePortability(name: string): string | undefined {
  if (PORTABLE_TOOL_NAME_PATTERN.test(name) || !TOOL_NAME_PATTERN.test(name)) return undefined;
  return (
    `tool name "${name}" has ${name.length > 64 ? 'more than 64 characters' : 'a dot'}: MCP allows it, but some ` +
    `clients (Claude Desktop, Windsurf) accept only 1-64 letters, digits, '_' and '-'`
  );
}
