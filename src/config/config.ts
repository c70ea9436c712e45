import type { Env } from './env-values.js';
import type { Part, Setting } from './setting.js';
import { isShellOnly, type ParsedSettingName, SETTINGS, type SettingName, type SettingValues } from './settings.js';

/** A variable whose value could not be used as given; the default (or the cap) was used instead. */
interface ConfigProblem {
  readonly name: ParsedSettingName;
  /** `MCPBASH_IDLE_TIMEOUT="soon" is not a whole number; using 3600` */
  readonly message: string;
  readonly usedBy: readonly Part[];
}

/** The configuration, parsed once from one environment. */
export interface Config {
  readonly values: SettingValues;
  readonly problems: readonly ConfigProblem[];
}

const PARSED_NAMES = (Object.keys(SETTINGS) as SettingName[]).filter(
  (name): name is ParsedSettingName => !isShellOnly(SETTINGS[name]),
);

/**
 * Parses every setting of the table from `env`: an unset or empty variable is its default
 * (which may follow another setting's value); an unusable one is its default too (a value
 * above a maximum is capped), and is reported in `problems`, by name.
 */
export function loadConfig(env: Env): Config {
  const values: Record<string, unknown> = {};
  const problems: ConfigProblem[] = [];
  const read = (name: string): unknown => {
    if (!(name in values)) values[name] = parseOne(name as ParsedSettingName, env, read, problems);
    return values[name];
  };
  for (const name of PARSED_NAMES) read(name);
  return { values: values as SettingValues, problems };
}

function parseOne(
  name: ParsedSettingName,
  env: Env,
  read: (name: string) => unknown,
  problems: ConfigProblem[],
): unknown {
  const setting = SETTINGS[name] as Setting<unknown>;
  const fallback = typeof setting.defaultValue === 'function' ? setting.defaultValue(read) : setting.defaultValue;
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const parsed = setting.parse(raw, fallback);
  if ('problem' in parsed) problems.push({ name, message: `${name}=${parsed.problem}`, usedBy: setting.usedBy });
  return parsed.value;
}

/** The problems of the settings some parts read (a command warns about what it uses, nothing else). */
export function problemsFor(config: Config, parts: readonly Part[]): string[] {
  return config.problems
    .filter((problem) => problem.usedBy.some((part) => parts.includes(part)))
    .map((problem) => problem.message);
}
