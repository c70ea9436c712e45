import type { AnySetting, Part, ShellSetting, ValueOf } from './setting.js';
import { SHELL_PARTS } from './setting.js';
import { cliSettings } from './settings/cli.js';
import { httpSettings } from './settings/http.js';
import { limitSettings } from './settings/limits.js';
import { loggingSettings } from './settings/logging.js';
import { pathSettings } from './settings/paths.js';
import { providerSettings } from './settings/providers.js';
import { registrySettings } from './settings/registry.js';
import { toolSettings } from './settings/tools.js';
import { transportSettings } from './settings/transport.js';

/**
 * The configuration table: every variable mcp-bash reads - the binary, and the Bash it
 * ships - with its type, default, bounds, what it does and which part uses it. The binary
 * parses its rows once at start-up (config.ts); docs/ENV.md's tables are rendered from it
 * (test/helpers/env-doc.ts). Variables the server sets for tools, providers and hooks are not settings
 * (docs/ENV.md lists them apart).
 */
export const SETTINGS = {
  ...pathSettings,
  ...toolSettings,
  ...limitSettings,
  ...registrySettings,
  ...loggingSettings,
  ...providerSettings,
  ...transportSettings,
  ...httpSettings,
  ...cliSettings,
} as const satisfies Record<string, AnySetting>;

export type SettingName = keyof typeof SETTINGS;

/** The settings the binary parses (the others are read by the shipped Bash only). */
export type ParsedSettingName = {
  [N in SettingName]: (typeof SETTINGS)[N] extends ShellSetting ? never : N;
}[SettingName];

/** Every parsed setting's value, by variable name. */
export type SettingValues = { readonly [N in ParsedSettingName]: ValueOf<(typeof SETTINGS)[N]> };

/** Whether only the shipped Bash reads a row. */
export function isShellOnly(setting: AnySetting): setting is ShellSetting {
  return setting.kind === 'shell' || setting.usedBy.every((part: Part) => SHELL_PARTS.has(part));
}
