import { readFileSync, statSync } from 'node:fs';
import { extname, isAbsolute, resolve } from 'node:path';
import type { Icon } from '../spec/types.js';

const ICON_MIME: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

/** Icons embedded as data URIs are for small images; a larger file is left out. */
const MAX_ICON_BYTES = 1024 * 1024;

/**
 * Normalises an `icons` array: `https:` and `data:` sources pass through; a local path
 * (relative to `baseDir`, the metadata file's directory) becomes a data URI, its MIME type
 * taken from the extension, so stdio clients need no network to show it.
 */
export function resolveIcons(value: unknown, baseDir: string, warnings: string[], owner: string): Icon[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    warnings.push(`${owner}: icons must be an array; ignored`);
    return undefined;
  }
  const icons: Icon[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null || typeof (entry as Icon).src !== 'string') {
      warnings.push(`${owner}: an icon without a string src was ignored`);
      continue;
    }
    const icon = { ...(entry as Icon) };
    if (/^(https?:|data:)/i.test(icon.src)) {
      icons.push(icon);
      continue;
    }
    const path = isAbsolute(icon.src) ? icon.src : resolve(baseDir, icon.src);
    const mime = icon.mimeType ?? ICON_MIME[extname(path).toLowerCase()];
    try {
      if (!mime) throw new Error('unknown image type (use .png .jpg .gif .svg .webp .ico or set mimeType)');
      if (statSync(path).size > MAX_ICON_BYTES) throw new Error(`larger than ${MAX_ICON_BYTES} bytes`);
      icons.push({ ...icon, src: `data:${mime};base64,${readFileSync(path).toString('base64')}`, mimeType: mime });
    } catch (error) {
      warnings.push(`${owner}: icon ${icon.src} left out: ${(error as Error).message}`);
    }
  }
  return icons.length > 0 ? icons : undefined;
}
