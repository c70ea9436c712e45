import { lstatSync, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';

/** Whether canonical `path` is canonical `root` or below it: plain prefix comparison, no globbing. */
export function isPathWithin(path: string, root: string): boolean {
  if (root === sep || path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** Where an edit of a user's file goes: the file itself, nowhere yet (missing), or refused. */
export type EditTarget =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Where an edit of the user's file at `path` (inside the project `root`) may be written. A
 * regular file is edited where it is. A symbolic link is followed only to a regular file
 * inside the project, and the edit goes to that file (the link stays a link); a link that
 * leaves the project, dangles or names something else is refused: nothing outside the
 * project is ever written through it.
 */
export function editTarget(path: string, root: string): EditTarget {
  let link: ReturnType<typeof lstatSync>;
  try {
    link = lstatSync(path);
  } catch {
    return { kind: 'missing' };
  }
  if (!link.isSymbolicLink()) {
    return link.isFile() ? { kind: 'file', path } : { kind: 'refused', reason: 'it is not a regular file' };
  }
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    return { kind: 'refused', reason: 'it is a symbolic link to nothing' };
  }
  if (!isPathWithin(target, realpathSync(root))) {
    return { kind: 'refused', reason: `it is a symbolic link to ${target}, outside the project` };
  }
  return statSync(target).isFile()
    ? { kind: 'file', path: target }
    : { kind: 'refused', reason: 'it is a symbolic link to something other than a regular file' };
}
