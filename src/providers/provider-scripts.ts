import { statSync } from 'node:fs';
import { join } from 'node:path';
import { isValidProviderName } from '../project/resources/provider-names.js';

/** Where provider scripts live: the project's `providers/` first, then the framework's. */
export interface ProviderDirs {
  readonly project: string;
  readonly framework: string;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The script of a provider: `<project>/providers/<name>.sh` wins over the framework's
 * `<home>/providers/<name>.sh`. Undefined when neither exists or the name is not a valid
 * provider name (so a registry entry can never point outside the providers directories).
 */
export function resolveProviderScript(name: string, dirs: ProviderDirs): string | undefined {
  if (!isValidProviderName(name)) return undefined;
  return [join(dirs.project, `${name}.sh`), join(dirs.framework, `${name}.sh`)].find(isFile);
}
