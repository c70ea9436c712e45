import { archiveBase64, contentHash, fileCount } from 'virtual:embedded-assets';
import { VERSION } from '../build-info.js';
import type { AssetBundle } from './extract-archive.js';
import { SDK_SENTINEL } from './framework-home.js';

/** The SDK, providers, scaffolds and examples baked into this binary by build.mjs. */
export const embeddedAssets: AssetBundle = {
  version: VERSION,
  contentHash,
  fileCount,
  sentinel: SDK_SENTINEL,
  archive: () => Buffer.from(archiveBase64, 'base64'),
};
