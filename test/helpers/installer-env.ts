import { spawn, spawnSync } from 'node:child_process';
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './scratch.js';

/** What install.sh may use besides a download tool (the rest are sh built-ins). */
export const INSTALLER_TOOLS = [
  'sh',
  'uname',
  'mktemp',
  'tar',
  'gzip',
  'sha256sum',
  'shasum',
  'cut',
  'awk',
  'sed',
  'tr',
  'cp',
  'mv',
  'chmod',
  'mkdir',
  'rm',
  'rmdir',
  'cat',
  'sysctl',
  'xattr',
  'codesign',
];

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, capturing its output. */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The path of a command on PATH, or undefined. */
export function which(name: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** Temp directories removed by `cleanup()`: installs write ~110 MB binaries. */
export class Scratch {
  private readonly dirs: string[] = [];

  dir(prefix: string): string {
    const dir = scratchDir(prefix);
    this.dirs.push(dir);
    return dir;
  }

  /** A PATH directory holding only these commands (symlinks): nothing else is reachable. */
  toolPath(names: readonly string[]): string {
    const dir = this.dir('mcpbash-tools-');
    for (const name of names) {
      const path = which(name);
      if (path) symlinkSync(path, join(dir, name));
    }
    return dir;
  }

  cleanup(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}
