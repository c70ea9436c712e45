import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { readFileHead } from '../fs/file-head.js';

/** A program and its arguments. */
export interface ScriptCommand {
  readonly command: string;
  readonly args: string[];
}

/** The first line of a file (up to 256 bytes), or '' when it cannot be read. */
function firstLine(path: string): string {
  try {
    return readFileHead(path, 256).toString('utf8').split('\n', 1)[0] ?? '';
  } catch {
    return '';
  }
}

/**
 * The shebangs that mean "this bash": `#!/usr/bin/env bash` (bash from PATH), `#!/bin/bash`
 * and `#!/usr/bin/bash`, without options. Such a script is started as `bash <script>` (the
 * kernel would run exactly that), which saves the exec of `env` - about a third of what
 * starting a small tool costs.
 */
const PLAIN_BASH_SHEBANG = /^#![ \t]*(?:\/usr\/bin\/env[ \t]+(bash)|(\/(?:usr\/)?bin\/bash))[ \t]*$/;

/**
 * How to start a project script (tool, provider, completion): directly when it is
 * executable and starts with a shebang (with a plain bash shebang: bash itself), else
 * through bash - as 1.x did for scripts without the executable bit or a shebang (and as
 * Windows always needs).
 */
export function scriptCommand(path: string): ScriptCommand {
  if (process.platform !== 'win32') {
    try {
      const executable = (statSync(path).mode & 0o111) !== 0;
      const line = executable ? firstLine(path) : '';
      if (!line.startsWith('#!')) return { command: 'bash', args: [path] };
      const bash = PLAIN_BASH_SHEBANG.exec(line);
      const interpreter = bash?.[1] ?? bash?.[2];
      return interpreter ? { command: interpreter, args: [path] } : { command: path, args: [] };
    } catch {
      // fall through: bash reports the problem on stderr
    }
  }
  return { command: 'bash', args: [path] };
}

/**
 * The same script started by bash itself, or undefined when it is not a Bash script: one
 * that runs through bash anyway, or one whose shebang names bash (`#!/bin/bash -e`,
 * `#!/usr/bin/env bash`). Options on the shebang line are kept. Used to trace tools.
 */
export function bashScriptCommand(path: string): ScriptCommand | undefined {
  const plain = scriptCommand(path);
  if (plain.command === 'bash') return plain;
  const words = firstLine(path).slice(2).trim().split(/\s+/);
  let index = basename(words[0] ?? '') === 'env' ? 1 : 0;
  // `#!/usr/bin/env -S bash -e`: env's own options come before the interpreter.
  while (index > 0 && words[index]?.startsWith('-')) index += 1;
  if (basename(words[index] ?? '') !== 'bash') return undefined;
  const options: string[] = [];
  for (const word of words.slice(index + 1)) {
    if (!word.startsWith('-')) break;
    options.push(word);
  }
  return { command: 'bash', args: [...options, path] };
}
