import { basename, dirname, extname } from 'node:path';

export const META_SUFFIX = '.meta.json';

/** The `*.meta.json` files among `files`. */
export function metaFiles(files: readonly string[]): string[] {
  return files.filter((path) => path.endsWith(META_SUFFIX));
}

/** `x` of `x.meta.json`. */
export function metaStem(meta: string): string {
  return basename(meta).slice(0, -META_SUFFIX.length);
}

/** The file a metadata file describes (`x.meta.json` beside `x.sh` or `x.txt`, or `x.txt.meta.json`). */
export function describedFile(meta: string, files: readonly string[]): string | undefined {
  const stem = metaStem(meta);
  return files.find(
    (file) =>
      dirname(file) === dirname(meta) &&
      !file.endsWith(META_SUFFIX) &&
      (basename(file) === stem || basename(file, extname(file)) === stem),
  );
}
