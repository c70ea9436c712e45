import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { type TreeWalk, walkTree } from '../discovery-files.js';

/**
 * What a kind's watched paths hold right now, read once: each directory's walk (files with
 * their stats) and each plain file's stat. The registry hashes it into a fingerprint, and a
 * scan that follows reuses the walks instead of reading the same directories again.
 */
export class TreeSnapshot {
  private readonly walks = new Map<string, TreeWalk | undefined>();

  /** `walk`: how a directory is walked (a walker shared with other snapshots, or a fresh walk). */
  constructor(
    readonly roots: readonly string[],
    private readonly walk: (dir: string) => TreeWalk | undefined = walkTree,
  ) {}

  /** The walk of `dir` when it is one of the roots (walked at most once), else undefined. */
  walkOf(dir: string): TreeWalk | undefined {
    if (!this.roots.includes(dir)) return undefined;
    if (!this.walks.has(dir)) this.walks.set(dir, this.walk(dir));
    return this.walks.get(dir);
  }

  /**
   * Every path under the roots with its size, mtime and mode (hidden entries skipped).
   * Equal fingerprints mean a rescan would find the same files, so it is skipped.
   */
  fingerprint(): string {
    const hash = createHash('sha256');
    for (const root of this.roots) {
      const tree = this.walkOf(root);
      if (tree) {
        hash.update(`${root}\0walk\0${walkDigest(tree)}\n`);
        continue;
      }
      const stat = statSync(root, { throwIfNoEntry: false });
      hash.update(stat ? `${root}\0${stat.size}\0${stat.mtimeMs}\0${stat.mode}\n` : `${root}\0missing\n`);
    }
    return hash.digest('hex');
  }
}

/** Digests of walks already hashed: registries sharing a walk hash its thousands of entries once. */
const digests = new WeakMap<TreeWalk, string>();

/** A hash of everything a walk found: each directory, and each file's size, mtime and mode. */
function walkDigest(tree: TreeWalk): string {
  let digest = digests.get(tree);
  if (digest === undefined) {
    // One string, hashed in one call: thousands of small update() calls cost more than the hashing.
    const lines = tree.dirs.map((dir) => `${dir}\0dir`);
    for (const file of tree.files) lines.push(`${file.path}\0${file.size}\0${file.mtimeMs}\0${file.mode}`);
    digest = createHash('sha256').update(lines.join('\n')).digest('hex');
    digests.set(tree, digest);
  }
  return digest;
}

/**
 * walkTree, remembered until the event loop next turns. Registries checked together (the
 * poll, the first scan after initialize) run in one turn, and tools and UI resources both
 * watch tools/: with this they share one walk of it instead of reading every file's stat
 * twice. Nothing is kept past the turn, so a later check always sees the disk as it is.
 */
export function sameTurnWalker(): (dir: string) => TreeWalk | undefined {
  let walks: Map<string, TreeWalk | undefined> | undefined;
  return (dir) => {
    if (!walks) {
      const fresh = new Map<string, TreeWalk | undefined>();
      walks = fresh;
      setImmediate(() => {
        if (walks === fresh) walks = undefined;
      });
    }
    if (!walks.has(dir)) walks.set(dir, walkTree(dir));
    return walks.get(dir);
  };
}
