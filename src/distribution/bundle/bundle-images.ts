import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { readFileHead } from '../../fs/file-head.js';
import { isObject } from '../../json/objects.js';
import type { JsonObject } from '../../spec/types.js';
import type { ArchiveEntry } from './zip-writer.js';

/** An entry of the manifest's `icons`. */
interface McpbIcon {
  src: string;
  size: string;
  theme?: string;
}

/** The images of a bundle: files for the archive root and the manifest fields naming them. */
export interface BundleImages {
  readonly entries: ArchiveEntry[];
  readonly icon?: string;
  readonly icons?: McpbIcon[];
  readonly screenshots?: string[];
  readonly warnings: string[];
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SIZE = /^\d+x\d+$/;
const REMOTE = /^(https?:|data:)/i;

/** `WxH` from a PNG's IHDR chunk, or undefined when the file is not a PNG. */
export function pngSize(path: string): string | undefined {
  const head = readFileHead(path, 24);
  if (head.length < 24 || !head.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  return `${head.readUInt32BE(16)}x${head.readUInt32BE(20)}`;
}

class ImageCollector {
  readonly entries: ArchiveEntry[] = [];
  readonly warnings: string[] = [];
  private readonly realRoot: string;

  constructor(
    private readonly root: string,
    private readonly serverDir: string,
  ) {
    this.realRoot = realpathSync(root);
  }

  /**
   * A local image named in server.meta.json (relative to the project root, else to
   * server.d/), with its archive path (project-relative); undefined (with a warning) when
   * it cannot ship.
   */
  local(src: string, what: string): { path: string; abs: string } | undefined {
    const candidates = isAbsolute(src) ? [src] : [join(this.root, src), join(this.serverDir, src)];
    const abs = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
    if (!abs) {
      this.warnings.push(`${what} ${src} not found; left out`);
      return undefined;
    }
    const rel = relative(this.realRoot, realpathSync(abs));
    if (rel.startsWith('..') || isAbsolute(rel)) {
      this.warnings.push(`${what} ${src} is outside the project; left out`);
      return undefined;
    }
    return { path: rel.split(sep).join('/'), abs };
  }

  /** Copies an image to the archive root (once, however often it is named); returns its path. */
  ship(image: { path: string; abs: string }): string {
    if (!this.entries.some((entry) => entry.path === image.path))
      this.entries.push({ path: image.path, mode: 0o644, source: image.abs });
    return image.path;
  }

  icon(raw: unknown): McpbIcon | undefined {
    if (!isObject(raw) || typeof raw.src !== 'string') {
      this.warnings.push('an icon without a string src in server.meta.json; left out');
      return undefined;
    }
    const sizes = Array.isArray(raw.sizes) ? raw.sizes.map(String) : [];
    let size = [raw.size, ...sizes].find((value): value is string => typeof value === 'string' && SIZE.test(value));
    const local = REMOTE.test(raw.src) ? undefined : this.local(raw.src, 'icon');
    if (!REMOTE.test(raw.src) && !local) return undefined;
    if (local) size ??= pngSize(local.abs);
    if (!size) {
      this.warnings.push(`icon ${raw.src}: MCPB needs its size ("size": "64x64"); left out`);
      return undefined;
    }
    const src = local ? this.ship(local) : raw.src;
    return { src, size, ...(typeof raw.theme === 'string' && raw.theme !== '' ? { theme: raw.theme } : {}) };
  }
}

/**
 * The bundle's images: `icon.png` at the project root (MCPB's `icon`, which must be a PNG),
 * server.meta.json's `icons` (with a size: given, or read from the PNG) and `screenshots`.
 */
export function collectImages(root: string, serverDir: string, meta: JsonObject): BundleImages {
  const collector = new ImageCollector(root, serverDir);
  let icon: string | undefined;
  if (existsSync(join(root, 'icon.png'))) {
    const local = collector.local('icon.png', 'icon');
    if (local && pngSize(local.abs)) icon = collector.ship(local);
    else if (local) collector.warnings.push('icon.png is not a PNG image; left out');
  } else if (existsSync(join(root, 'icon.svg'))) {
    collector.warnings.push('icon.svg left out: MCPB bundle icons must be PNG (add an icon.png, 512x512)');
  }
  const icons = Array.isArray(meta.icons)
    ? meta.icons.map((raw) => collector.icon(raw)).filter((item): item is McpbIcon => item !== undefined)
    : [];
  const screenshots = Array.isArray(meta.screenshots)
    ? meta.screenshots
        .filter((item): item is string => typeof item === 'string')
        .map((item) => {
          if (REMOTE.test(item)) return item;
          const local = collector.local(item, 'screenshot');
          return local ? collector.ship(local) : undefined;
        })
        .filter((item): item is string => item !== undefined)
    : [];
  return {
    entries: collector.entries,
    warnings: collector.warnings,
    ...(icon ? { icon } : {}),
    ...(icons.length > 0 ? { icons } : {}),
    ...(screenshots.length > 0 ? { screenshots } : {}),
  };
}
