import { readdirSync, readFileSync } from 'node:fs';

/**
 * Whether a process is alive. Zombies count as dead: on this machine kind PID 1 does not
 * reap orphans, so a killed grandchild can linger in state Z.
 */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    try {
      process.kill(pid, 0);
      return process.platform !== 'linux';
    } catch {
      return false;
    }
  }
}

/** Polls until `pid` is gone (true) or the time is up (false). */
export async function waitForExit(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/** Polls until `check` holds or the time is up. */
export async function eventually(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** Fields of /proc/PID/stat after the command name: [state, ppid, pgrp, ...]. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The process group of a live process (Linux), or undefined. */
export function processGroupOf(pid: number): number | undefined {
  const group = statFields(pid)?.[2];
  return group === undefined ? undefined : Number(group);
}

/** Whether any process of group `pgid` is alive, zombies aside. */
export function isGroupAlive(pgid: number): boolean {
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  return readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    const fields = statFields(entry);
    return fields !== undefined && Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X';
  });
}
