import { spawnSync } from 'node:child_process';
import type { Env } from '../../config/env-values.js';

/** What git knows that a bundle can use when nothing else names it. */
export interface GitInfo {
  readonly userName?: string;
  readonly userEmail?: string;
  /** remote.origin.url as an https URL (scp-like `git@host:path` is converted). */
  readonly repositoryUrl?: string;
}

function gitConfig(root: string, key: string, env: Env): string | undefined {
  const run = spawnSync('git', ['-C', root, 'config', '--get', key], {
    encoding: 'utf8',
    env: env as NodeJS.ProcessEnv,
    timeout: 5000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  if (run.error || run.status !== 0) return undefined;
  const value = run.stdout.trim();
  return value === '' ? undefined : value;
}

/**
 * A remote URL a manifest can carry: http(s) URLs as they are (credentials removed),
 * `git@host:owner/repo.git` and `ssh://git@host/...` as https; anything else (a local
 * path) is not a repository URL.
 */
export function repositoryUrlFromRemote(remote: string): string | undefined {
  const scpLike = /^[\w.-]+@([\w.-]+):(?!\/)(.+)$/.exec(remote);
  if (scpLike) return `https://${scpLike[1]}/${scpLike[2]}`;
  if (!URL.canParse(remote)) return undefined;
  const url = new URL(remote);
  if (url.protocol === 'ssh:' || url.protocol === 'git:') return `https://${url.hostname}${url.pathname}`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  url.username = '';
  url.password = '';
  return url.toString();
}

/** user.name, user.email and remote.origin.url of the project's repository (global config too). */
export function readGitInfo(root: string, env: Env): GitInfo {
  const remote = gitConfig(root, 'remote.origin.url', env);
  const info: { userName?: string; userEmail?: string; repositoryUrl?: string } = {};
  const userName = gitConfig(root, 'user.name', env);
  const userEmail = gitConfig(root, 'user.email', env);
  const repositoryUrl = remote ? repositoryUrlFromRemote(remote) : undefined;
  if (userName) info.userName = userName;
  if (userEmail) info.userEmail = userEmail;
  if (repositoryUrl) info.repositoryUrl = repositoryUrl;
  return info;
}
