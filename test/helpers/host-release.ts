import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostTarget } from '../../release/node-binary.mjs';
import { archiveName, binaryName } from '../../release/targets.mjs';
import { repoRoot } from './paths.js';
import { parseSums } from './release-files.js';

/** A release of this machine's target only, built once and shared by the test files. */
export interface HostRelease {
  readonly dir: string;
  readonly version: string;
  readonly target: string;
  /** The archive's file name and path, and its SHA-256 from SHA256SUMS. */
  readonly archive: string;
  readonly archivePath: string;
  readonly archiveSha256: string;
  readonly binaryName: string;
  readonly sums: Map<string, string>;
}

const releaseDir = join(repoRoot, 'dist', 'test-release');
const lockDir = join(repoRoot, 'dist', '.test-release.lock');
const LOCK_WAIT_MS = 10 * 60 * 1000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** mkdir as a lock between test processes; a lock whose owner died is taken over. */
async function withLock<T>(body: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  mkdirSync(join(repoRoot, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch {
      const owner = Number(readFileSync(join(lockDir, 'pid'), { encoding: 'utf8', flag: 'a+' }));
      if (owner > 0 && !alive(owner)) rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`waited too long for ${lockDir}`);
      else await sleep(250);
    }
  }
  try {
    return await body();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function runBuild(): Promise<void> {
  const env = { ...process.env };
  delete env.MCPBASH_RELEASE_BASE_URL;
  delete env.SOURCE_DATE_EPOCH;
  // Not the test runner's coverage hooks: the build is not what the tests measure.
  for (const name of Object.keys(env)) if (/^(NODE_OPTIONS|NODE_V8_COVERAGE|_TAPJS_)/.test(name)) delete env[name];
  const args = ['build.mjs', '--release', '--if-needed', '--no-binary', '--out', releaseDir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`node build.mjs --release failed (${code}):\n${stderr}`)),
    );
  });
}

let cached: Promise<HostRelease> | undefined;

/**
 * Builds (or reuses, when its inputs are unchanged) the host target's release in
 * dist/test-release: `npm run release` for all five targets takes minutes, so the tests
 * check the installers and archives against this one.
 */
export function hostRelease(): Promise<HostRelease> {
  cached ??= withLock(async () => {
    await runBuild();
    const target = hostTarget();
    if (!target) throw new Error(`no release target for ${process.platform}-${process.arch}`);
    const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;
    const sums = parseSums(readFileSync(join(releaseDir, 'SHA256SUMS'), 'utf8'));
    const archive = archiveName(version, target);
    return {
      dir: releaseDir,
      version,
      target,
      archive,
      archivePath: join(releaseDir, archive),
      archiveSha256: sums.get(archive) ?? '',
      binaryName: binaryName(target),
      sums,
    };
  });
  return cached;
}
