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
import { posix, win32 } from 'node:path';
import { promisify } from 'node:util';
import { isStillAt } from '../fs/confined-open.js';
import { ProviderExit } from './provider-errors.js';

/**
 * The built-in `file` provider, the one implementation of its rules: the server reads
 * file:// URIs with it in-process, and assets/providers/file.sh (for 1.x projects and
 * providers that run it directly) is a thin call of `mcp-bash file-provider`, which uses it too.
 *
 * - The URI is percent-decoded (RFC 8089/3986): file:///tmp/My%20Notes.txt names
 *   "/tmp/My Notes.txt"; a 1.x URI written without encoding still works (the literal path
 *   is tried when the decoded one does not exist); %00 is refused. A path is bytes, not text:
 *   one that is not UTF-8 is read as named.
 * - file://localhost/path is file:///path; relative forms (file://./resources/x.txt) start
 *   at the project root; Windows drive paths (C:/x, C:\x, /C:/x) are the drive's path on
 *   Windows and the MSYS form (/c/x) elsewhere, as 1.x under Git Bash read them.
 * - Allowed roots: the first non-empty list of MCP_RESOURCES_ROOTS, MCPBASH_RESOURCES_DIR,
 *   MCPBASH_PROJECT_ROOT; with none, everything is refused (fails closed). Roots that do not
 *   exist are ignored; containment compares physical paths (symlinks resolved) literally, so
 *   glob characters in roots are not patterns.
 * - The file is opened before it is checked, and what is read is what was checked: a file or
 *   directory swapped for a symbolic link while a read runs never serves a file outside the
 *   roots (docs/SECURITY.md). Symbolic links themselves are not served.
 * - Exit statuses (the provider contract): 0 ok; 2 outside the roots, a link, or changed
 *   while opened; 3 not found, not a regular file or unreadable; 4 not a usable file:// URI.
 *
 * The checks are synchronous calls of a few microseconds each (the asynchronous ones cost a
 * thread-pool round trip apiece); only a large file is read asynchronously.
 */
export interface FileReadRequest {
  readonly uri: string;
  /** Where relative paths (file://./x) and relative roots start: the project root. */
  readonly cwd: string;
  /** Lists of roots (MCP_RESOURCES_ROOTS, then fallbacks): the first non-empty one is used. */
  readonly rootLists: readonly (readonly string[])[];
  /** More bytes than this: `overflow`, no content. */
  readonly maxBytes: number;
}

/** What a provider script produces: its exit status, stdout and stderr line. */
export interface ProviderOutcome {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly overflow?: boolean;
}

const fail = (exitCode: number, stderr: string): ProviderOutcome => ({
  exitCode,
  stdout: Buffer.alloc(0),
  stderr: `${stderr}\n`,
});

const onWindows = process.platform === 'win32';
const paths = onWindows ? win32 : posix;

/*
 * Paths here are byte strings: one character per byte (latin1), so that a name that is not
 * UTF-8 survives every step exactly; `bytes` turns one into what the file system takes.
 */
const bytes = (path: string) => Buffer.from(path, 'latin1');
const byteString = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
/** A byte string as a message shows it (bytes that are not UTF-8 become U+FFFD). */
const shown = (path: string) => bytes(path).toString('utf8');

/** %XX decoding of a file URI's path, as a byte string; undefined for %00 (no path can hold a NUL). */
function percentDecode(text: string): string | undefined {
  const raw = byteString(text);
  if (raw.includes('%00')) return undefined;
  return raw.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The path a URI's `file://` remainder names (backslashes, localhost, drive letters). */
function toLocalPath(raw: string): string {
  let path = raw.replaceAll('\\', '/');
  if (path.startsWith('localhost/')) path = path.slice('localhost'.length);
  if (/^\/[A-Za-z]:(\/|$)/.test(path)) path = path.slice(1);
  if (onWindows || !/^[A-Za-z]:(\/|$)/.test(path)) return path;
  return `/${(path[0] as string).toLowerCase()}${path.slice(2)}`;
}

/** A directory with symlinks resolved (`cd -P DIR && pwd -P`), with `/` separators, or undefined. */
function physicalDir(path: string): string | undefined {
  try {
    const real = realpathSync.native(bytes(path), { encoding: 'buffer' });
    if (!statSync(real).isDirectory()) return undefined;
    const text = real.toString('latin1');
    return onWindows ? text.replaceAll('\\', '/') : text;
  } catch {
    return undefined;
  }
}

const within = (root: string, path: string) =>
  root === '/' || path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);

const exists = (path: string) => lstatSync(bytes(path), { throwIfNoEntry: false }) !== undefined;

/** The path to read: the decoded one, or the literal one a 1.x unencoded URI meant. */
function targetPath(raw: string): string | ProviderOutcome {
  const decoded = percentDecode(raw);
  if (decoded === undefined) return fail(ProviderExit.InvalidSpec, 'file provider: invalid percent-encoding in URI');
  const path = toLocalPath(decoded);
  const literal = toLocalPath(byteString(raw));
  if (path !== literal && !exists(path) && exists(literal)) return literal;
  return path;
}

function allowedRoots(request: FileReadRequest, cwd: string): string[] {
  const list = request.rootLists.find((roots) => roots.some((root) => root !== '')) ?? [];
  return list.flatMap((entry) => {
    const real = entry === '' ? undefined : physicalDir(paths.resolve(cwd, byteString(entry)));
    return real === undefined ? [] : [real];
  });
}

/** Reads a file:// URI by the rules above. */
export async function readFileUri(request: FileReadRequest): Promise<ProviderOutcome> {
  const { uri } = request;
  if (!uri.startsWith('file://')) return fail(ProviderExit.InvalidSpec, 'file provider requires a file:// URI');
  const path = targetPath(uri.slice('file://'.length));
  if (typeof path === 'object') return path;
  if (!path) return fail(ProviderExit.InvalidSpec, 'file provider: empty path');
  const cwd = byteString(request.cwd);
  const roots = allowedRoots(request, cwd);
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
    return fail(ProviderExit.NotFound, `file provider: not a file: ${shown(path)}`);
  const realDir = physicalDir(paths.resolve(cwd, dir));
  if (realDir === undefined) return fail(ProviderExit.NotFound, `file provider: not found: ${shown(path)}`);
  const target = realDir.endsWith('/') ? `${realDir}${name}` : `${realDir}/${name}`;
  if (!roots.some((root) => within(root, target))) {
    return fail(ProviderExit.OutsideRoots, `file provider: outside allowed roots: ${shown(path)}`);
  }
  return readConfined(target, shown(path), request.maxBytes);
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

/**
 * The checks on the file itself, then the read: never through a link, never outside the
 * roots. Windows has no O_NOFOLLOW and no kernel path of a descriptor: there the device and
 * inode of the opened file must match the checked name's.
 */
async function readConfined(target: string, path: string, maxBytes: number): Promise<ProviderOutcome> {
  const linkRefused = fail(ProviderExit.OutsideRoots, `file provider: symbolic links are not served: ${path}`);
  const file = bytes(target);
  const info = lstatSync(file, { throwIfNoEntry: false });
  if (info?.isSymbolicLink()) return linkRefused;
  if (!info?.isFile()) return fail(ProviderExit.NotFound, `file provider: not found or not a regular file: ${path}`);
  const unreadable = fail(ProviderExit.NotFound, `file provider: not readable: ${path}`);
  let fd: number;
  try {
    accessSync(file, constants.R_OK);
    // O_NOFOLLOW: a file swapped for a link after the checks above fails to open.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? linkRefused : unreadable;
  }
  try {
    // The descriptor, not the name, is checked: it must be the regular file now at the checked
    // path (src/fs/confined-open.ts), so a swapped file or parent directory is never read.
    const opened = fstatSync(fd);
    const same = opened.isFile() && opened.ino === info.ino && opened.dev === info.dev;
    if (!same || (!onWindows && !isStillAt(fd, file, opened))) {
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
