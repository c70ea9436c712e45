/**
 * ESM loader hooks that run the TypeScript of src/ and test/ in the test processes: esbuild
 * strips the types (tsc type-checks separately in npm test), and the output is cached on
 * disk by content, so the ~130 test processes of a run share one transpilation of each file
 * instead of transpiling everything they import again (ts-node did: ~0.6 s of CPU a process
 * before the first test, more for files that load the server).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cacheDir = join(repoRoot, '.cache', 'test-ts');
// A new esbuild, or a change to how this file calls it, starts a new set of entries.
const esbuildVersion = JSON.parse(
  readFileSync(join(repoRoot, 'node_modules', 'esbuild', 'package.json'), 'utf8'),
).version;
const hookVersion = `1-${esbuildVersion}`;

/** The compiler options of tsconfig.json that change esbuild's output. */
const tsconfigRaw = {
  compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: true },
};

let esbuild;

/** A file URL of TypeScript, with or without a query (tap's mocks add one). */
function isTypeScript(url) {
  return /\.m?ts$/.test(new URL(url).pathname);
}

/**
 * `./x.js` written in TypeScript names `./x.ts` (NodeNext resolution), also as the file URL
 * tap's mockImport resolves it to (with its query): when x.js does not exist and x.ts does.
 */
export async function resolve(specifier, context, nextResolve) {
  if (/^(\.\.?\/|file:)/.test(specifier) && context.parentURL?.startsWith('file:')) {
    const target = new URL(specifier, context.parentURL);
    if (target.pathname.endsWith('.js') && !target.pathname.includes('/node_modules/')) {
      const ts = new URL(target.href);
      ts.pathname = ts.pathname.replace(/\.js$/, '.ts');
      if (existsSync(fileURLToPath(ts)) && !existsSync(fileURLToPath(target)))
        return { url: ts.href, shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

/** Text imports (`with { type: 'text' }`: the UI templates' CSS and browser scripts), as esbuild inlines them. */
const TEXT_MODULE = /\.(css|browser\.js)$/;

/** TypeScript files load as ES modules with an inline source map (for stacks and coverage). */
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && TEXT_MODULE.test(new URL(url).pathname)) {
    const text = readFileSync(fileURLToPath(url), 'utf8');
    return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
  }
  if (!url.startsWith('file:') || !isTypeScript(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, 'utf8');
  const key = createHash('sha256').update(`${hookVersion}\0${path}\0${source}`).digest('hex');
  const cached = join(cacheDir, `${key}.js`);
  if (existsSync(cached)) return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  esbuild ??= await import('esbuild');
  const output = await esbuild.transform(source, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: basename(path),
    tsconfigRaw,
  });
  mkdirSync(cacheDir, { recursive: true });
  // Parallel test processes may write the same entry: each writes its own file, then renames.
  const temporary = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(temporary, output.code);
  renameSync(temporary, cached);
  return { format: 'module', source: output.code, shortCircuit: true };
}
