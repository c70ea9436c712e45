/**
 * Registers the TypeScript loader of the test processes (see hooks.mjs). tap starts every
 * test file with it (package.json "tap" "node-arg"); `node --import ./test/loader/register.mjs
 * file.test.ts` runs one outside tap.
 */
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
