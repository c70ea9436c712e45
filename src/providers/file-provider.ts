import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  read,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { isStillAt } from '../fs/confined-open.js';
import { ProviderExit } from './provider-errors.js';

/**
 * The built-in `file` provider served in-process: the same rules, messages and exit statuses
 * as assets/providers/file.sh (which still serves projects that replace it, Windows, and
 * `mcp-bash` commands that run providers as scripts), without a bash process per read.
 * The checks are synchronous calls of a few microseconds each (the asynchronous ones cost a
 * thread-pool round trip apiece); only a large file is read asynchronously.
 */
export interface FileReadRequest {
  readonly uri: string;
  /** Where relative paths (file://./x) and relative roots start: the project root. */
  readonly cwd: string;
  /** Colon-separated root lists (MCP_RESOURCES_ROOTS, then fallbacks): the first non-empty one is used. */
  readonly rootsSpec: readonly string[];
  /** More bytes than this: `overflow`, no content. */
  readonly maxBytes: number;
}

/** What the script would have produced: its exit status, stdout and stderr line. */
export interface ProviderOutcome {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly overflow?: boolean;
}

/** The URI cannot be handled exactly in-process (a path that is not UTF-8): use the script. */
export const NEEDS_SCRIPT = Symbol('needs the file provider script');

const fail = (exitCode: number, stderr: string): ProviderOutcome => ({
  exitCode,
  stdout: Buffer.alloc(0),
  stderr: `${stderr}\n`,
});

/** %XX decoding of a file URI's path; undefined for %00 (no path can hold a NUL). */
function percentDecode(text: string): string | undefined | typeof NEEDS_SCRIPT {
  if (!text.includes('%')) return text;
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const hex = text.slice(index + 1, index + 3);
    if (text[index] === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      const value = Number.parseInt(hex, 16);
      if (value === 0) return undefined;
      bytes.push(value);
      index += 2;
    } else {
      bytes.push(...Buffer.from(text[index] as string, 'utf8'));
    }
  }
  const decoded = Buffer.from(bytes);
  const asText = decoded.toString('utf8');
  // A path that is not UTF-8 has no exact JavaScript string.
  return Buffer.from(asText, 'utf8').equals(decoded) ? asText : NEEDS_SCRIPT;
}

/** The path a URI's `file://` remainder names (backslashes, localhost, MSYS drive letters). */
function toLocalPath(raw: string): string {
  let path = raw.replaceAll('\\', '/');
  if (path.startsWith('localhost/')) path = path.slice('localhost'.length);
  if (/^\/[A-Za-z]:(\/|$)/.test(path)) path = path.slice(1);
  if (/^[A-Za-z]:(\/|$)/.test(path)) path = `/${(path[0] as string).toLowerCase()}${path.slice(2)}`;
  return path;
}

/** A directory with symlinks resolved (`cd -P DIR && pwd -P`), or undefined. */
function physicalDir(path: string): string | undefined {
  try {
    const real = realpathSync.native(path);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

const within = (root: string, path: string) => root === '/' || path === root || path.startsWith(`${root}/`);

const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** The path to read: the decoded one, or the literal one a 1.x unencoded URI meant. */
function targetPath(raw: string): string | undefined | ProviderOutcome | typeof NEEDS_SCRIPT {
  const decoded = percentDecode(raw);
  if (decoded === undefined) return fail(ProviderExit.InvalidSpec, 'file provider: invalid percent-encoding in URI');
  if (decoded === NEEDS_SCRIPT) return decoded;
  const path = toLocalPath(decoded);
  const literal = toLocalPath(raw);
  if (path !== literal && !exists(path) && exists(literal)) return literal;
  return path;
}

function allowedRoots(request: FileReadRequest): string[] {
  const roots: string[] = [];
  for (const entry of request.rootsSpec.find((spec) => spec !== '')?.split(':') ?? []) {
    if (entry === '') continue;
    const real = physicalDir(resolve(request.cwd, entry));
    if (real !== undefined) roots.push(real);
  }
  return roots;
}

/** Reads a file:// URI as the file provider does (see assets/providers/file.sh for the rules). */
export async function readFileUri(request: FileReadRequest): Promise<ProviderOutcome | typeof NEEDS_SCRIPT> {
  const { uri } = request;
  if (!uri.startsWith('file://')) return fail(ProviderExit.InvalidSpec, 'file provider requires a file:// URI');
  const path = targetPath(uri.slice('file://'.length));
  if (typeof path === 'object' || path === NEEDS_SCRIPT) return path;
  if (!path) return fail(ProviderExit.InvalidSpec, 'file provider: empty path');
  const roots = allowedRoots(request);
  if (roots.length === 0) {
    return fail(
      ProviderExit.OutsideRoots,
      'file provider: no resource roots configured (MCP_RESOURCES_ROOTS); refusing',
    );
  }
  const slash = path.lastIndexOf('/');
  const dir = slash === -1 ? '.' : slash === 0 ? '/' : path.slice(0, slash);
  const name = path.slice(slash + 1);
  if (name === '' || name === '.' || name === '..')
    return fail(ProviderExit.NotFound, `file provider: not a file: ${path}`);
  const realDir = physicalDir(resolve(request.cwd, dir));
  if (realDir === undefined) return fail(ProviderExit.NotFound, `file provider: not found: ${path}`);
  const target = realDir === '/' ? `/${name}` : `${realDir}/${name}`;
  if (!roots.some((root) => within(root, target))) {
    return fail(ProviderExit.OutsideRoots, `file provider: outside allowed roots: ${path}`);
  }
  return readConfined(target, path, request.maxBytes);
}

/** Files up to this size are read synchronously: a fraction of a millisecond. */
const SYNC_READ_BYTES = 1024 * 1024;

const readAsync = promisify(read);

/**
 * The whole file, or undefined past `maxBytes` (it may have grown since it was measured). A
 * large file is read through the thread pool, so the server keeps answering meanwhile.
 */
async function readAtMost(fd: number, size: number, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  for (;;) {
    const bytesRead =
      size >= SYNC_READ_BYTES
        ? (await readAsync(fd, buffer, 0, buffer.length, total)).bytesRead
        : readSync(fd, buffer, 0, buffer.length, total);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return undefined;
    buffer = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
  }
}

/** The checks on the file itself, then the read: never through a link, never outside the roots. */
async function readConfined(target: string, path: string, maxBytes: number): Promise<ProviderOutcome> {
  const linkRefused = fail(ProviderExit.OutsideRoots, `file provider: symbolic links are not served: ${path}`);
  const info = lstatSync(target, { throwIfNoEntry: false });
  if (info?.isSymbolicLink()) return linkRefused;
  if (!info?.isFile()) return fail(ProviderExit.NotFound, `file provider: not found or not a regular file: ${path}`);
  const unreadable = fail(ProviderExit.NotFound, `file provider: not readable: ${path}`);
  let fd: number;
  try {
    accessSync(target, constants.R_OK);
    // O_NOFOLLOW: a file swapped for a link after the checks above fails to open.
    fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? linkRefused : unreadable;
  }
  try {
    // The descriptor, not the name, is checked: it must be the regular file now at the checked
    // path (src/fs/confined-open.ts), so a swapped file or parent directory is never read.
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev || !isStillAt(fd, target, opened)) {
      return fail(ProviderExit.OutsideRoots, `file provider: file changed while being opened: ${path}`);
    }
    if (opened.size > maxBytes) return { exitCode: 0, stdout: Buffer.alloc(0), stderr: '', overflow: true };
    const content = await readAtMost(fd, opened.size, maxBytes);
    if (content === undefined) return { exitCode: 0, stdout: Buffer.alloc(0), stderr: '', overflow: true };
    return { exitCode: 0, stdout: content, stderr: '' };
  } finally {
    closeSync(fd);
  }
}
