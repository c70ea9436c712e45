import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { readFileUri } from '../../src/providers/file-provider.js';
import { mcpBashWrapper, providersDir, sandbox, sh } from '../helpers/sdk-harness.js';

const fileProvider = join(providersDir, 'file.sh');
const echoProvider = join(providersDir, 'echo.sh');

type ProviderEnv = Record<string, string | undefined>;
interface Read {
  code: number | null;
  stdout: string;
  stderr: string;
}
type Reader = (box: ReturnType<typeof sandbox>, cwd: string) => (uri: string, env: ProviderEnv) => Promise<Read>;

/** assets/providers/file.sh, as 1.x providers that run it directly do: a call into the binary. */
const script: Reader = (box, cwd) => (uri, env) =>
  box.runPlain(
    `cd ${sh(cwd)}; bash ${sh(fileProvider)} ${sh(uri)} | od -An -tx1 -v | tr -d ' \\n'; exit "\${PIPESTATUS[0]}"`,
    { env: { MCPBASH_BIN: mcpBashWrapper(), ...env } },
  );

/** The in-process provider the server uses, given the roots the script reads from its environment. */
const inProcess: Reader = (_box, cwd) => async (uri, env) => {
  const roots = [env.MCP_RESOURCES_ROOTS, env.MCPBASH_RESOURCES_DIR, env.MCPBASH_PROJECT_ROOT];
  const rootLists = roots.map((value) => value?.split(':') ?? []);
  const outcome = await readFileUri({ uri, cwd, rootLists, maxBytes: 1_000_000 });
  return { code: outcome.exitCode, stdout: outcome.stdout.toString('hex'), stderr: outcome.stderr };
};

for (const [route, reader] of [
  ['script', script],
  ['in-process', inProcess],
] as const) {
  t.test(`file provider (${route})`, async (t) => {
    const box = sandbox(t);
    const dir = realpathSync(box.dir);
    const root = join(dir, 'resources');
    const outside = join(dir, 'outside');
    mkdirSync(join(root, 'docs'), { recursive: true });
    mkdirSync(outside);
    const bytes = Buffer.from([0x68, 0x69, 0x0a, 0x0a, 0x00, 0xff, 0x0a, 0x0a]);
    writeFileSync(join(root, 'docs', 'My Notes #1.txt'), bytes);
    writeFileSync(join(root, 'plain.txt'), 'plain\n');
    writeFileSync(join(root, 'a%20b.txt'), 'literal percent name');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
    symlinkSync(join(root, 'plain.txt'), join(root, 'link-in.txt'));
    symlinkSync(outside, join(root, 'dir-out'));
    writeFileSync(join(root, 'locked.txt'), 'x');
    chmodSync(join(root, 'locked.txt'), 0o000);
    const glob = join(dir, 'res[1]');
    mkdirSync(glob);
    mkdirSync(join(dir, 'res1'));
    writeFileSync(join(dir, 'res1', 'f.txt'), 'not allowed');
    writeFileSync(join(glob, 'f.txt'), 'allowed');

    const readWith = reader(box, dir);
    const read = (uri: string, env: ProviderEnv = { MCP_RESOURCES_ROOTS: root }) => readWith(uri, env);
    const hex = (buffer: Buffer) => buffer.toString('hex');

    const encoded = await read(`file://${root}/docs/My%20Notes%20%231.txt`);
    t.equal(encoded.code, 0, encoded.stderr);
    t.equal(encoded.stdout, hex(bytes), 'percent-decoded; bytes exactly as on disk (NUL, 0xff, trailing newlines)');
    t.equal(
      (await read(`file://localhost${root}/plain.txt`)).stdout,
      hex(Buffer.from('plain\n')),
      'file://localhost/...',
    );
    t.equal(
      (await read('file://./resources/plain.txt')).stdout,
      hex(Buffer.from('plain\n')),
      'relative to the working directory',
    );
    const literal = hex(Buffer.from('literal percent name'));
    t.equal((await read(`file://${root}/a%2520b.txt`)).stdout, literal, 'an encoded % decodes to the literal name');
    t.equal(
      (await read(`file://${root}/a%20b.txt`)).stdout,
      literal,
      'a 1.x unencoded URI still works when the decoded name does not exist',
    );
    t.equal((await read(`file://${root}/link-in.txt`)).code, 2, 'symlinks are refused even inside the roots');

    const outcomes: Array<[string, number, Record<string, string | undefined>?]> = [
      [`file://${outside}/secret.txt`, 2],
      [`file://${root}/../outside/secret.txt`, 2],
      [`file://${root}/docs/../../outside/secret.txt`, 2],
      [`file://${root}/link-out.txt`, 2],
      [`file://${root}/dir-out/secret.txt`, 2],
      [`file://${root}/missing.txt`, 3],
      [`file://${root}/nodir/missing.txt`, 3],
      [`file://${root}/docs`, 3],
      [`file://${root}/docs/`, 3],
      ['https://example.com/x', 4],
      [`file://${root}/bad%00nul`, 4],
      [`file://${dir}/res1/f.txt`, 2, { MCP_RESOURCES_ROOTS: glob }],
      [`file://${root}/plain.txt`, 2, { MCP_RESOURCES_ROOTS: undefined }],
      [`file://${root}/plain.txt`, 2, { MCP_RESOURCES_ROOTS: join(dir, 'does-not-exist') }],
    ];
    if (process.getuid?.() !== 0) outcomes.push([`file://${root}/locked.txt`, 3]);
    for (const [uri, code, env] of outcomes) {
      const run = await read(uri, env ?? { MCP_RESOURCES_ROOTS: root });
      t.equal(run.code, code, `${uri} -> ${code} (${run.stderr.trim()})`);
      t.equal(run.stdout, '', 'nothing on stdout');
    }
    t.equal(
      (await read(`file://${glob}/f.txt`, { MCP_RESOURCES_ROOTS: glob })).code,
      0,
      'glob characters in roots are literal',
    );

    const fallbacks = await read(`file://${root}/plain.txt`, { MCPBASH_RESOURCES_DIR: root });
    t.equal(fallbacks.code, 0, 'MCPBASH_RESOURCES_DIR when MCP_RESOURCES_ROOTS is unset');
    // The sandbox's environment, like the server's, sets MCPBASH_RESOURCES_DIR: unset it here.
    const projectRoot = await read(`file://${root}/plain.txt`, {
      MCPBASH_PROJECT_ROOT: dir,
      MCPBASH_RESOURCES_DIR: undefined,
    });
    t.equal(projectRoot.code, 0, 'then MCPBASH_PROJECT_ROOT');
    // caf\xe9.txt: Latin-1, a byte that is not UTF-8 in the name; read as named, shown lossily.
    writeFileSync(Buffer.concat([Buffer.from(`${root}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'latin-1');
    t.equal((await read(`file://${root}/caf%E9.txt`)).stdout, hex(Buffer.from('latin-1')), 'a name that is not UTF-8');
    t.match((await read(`file://${root}/caf%E9.md`)).stderr, /not found or not a regular file: .*\/caf\uFFFD\.md/);
    const multi = await read(`file://${glob}/f.txt`, { MCP_RESOURCES_ROOTS: `${join(dir, 'nope')}:${root}:${glob}` });
    t.equal(multi.code, 0, 'a colon-separated list');
  });
}

for (const [route, reader] of [
  ['script', script],
  ['in-process', inProcess],
] as const) {
  t.test(`file provider maps Windows drive paths to MSYS form (${route})`, async (t) => {
    const read = reader(sandbox(t), '/');
    // No /c here: with the root "/" the lookup fails as not found, naming the mapped path.
    const run = await read('file:///C:/Users/x/file.txt', { MCP_RESOURCES_ROOTS: '/' });
    t.equal(run.code, 3);
    t.match(run.stderr, /not found: \/c\/Users\/x\/file\.txt/);
    const backslash = await read('file://C:\\Users\\x\\f.txt', { MCP_RESOURCES_ROOTS: '/' });
    t.match(backslash.stderr, /\/c\/Users\/x\/f\.txt/);
  });
}

t.test('file.sh: a file over MCPBASH_MAX_RESOURCE_BYTES is exit 1, nothing on stdout', async (t) => {
  const box = sandbox(t);
  const dir = realpathSync(box.dir);
  writeFileSync(join(dir, 'big.txt'), 'four');
  const read = script(box, dir);
  const over = await read(`file://${dir}/big.txt`, { MCP_RESOURCES_ROOTS: dir, MCPBASH_MAX_RESOURCE_BYTES: '3' });
  t.equal(over.code, 1);
  t.equal(over.stdout, '');
  t.match(over.stderr, /larger than MCPBASH_MAX_RESOURCE_BYTES \(3 bytes\)/);
  const fits = await read(`file://${dir}/big.txt`, { MCP_RESOURCES_ROOTS: dir, MCPBASH_MAX_RESOURCE_BYTES: '4' });
  t.equal(fits.stdout, Buffer.from('four').toString('hex'));
});

t.test('file.sh without MCPBASH_BIN and no mcp-bash on PATH says what is missing', async (t) => {
  const box = sandbox(t);
  const run = await box.runPlain(`PATH=/usr/bin:/bin; bash ${sh(fileProvider)} file:///x`, {
    env: { MCPBASH_BIN: undefined },
  });
  t.equal(run.code, 1);
  t.match(run.stderr, /mcp-bash not found \(set MCPBASH_BIN or put mcp-bash on PATH\)/);
});

t.test('echo provider', async (t) => {
  const box = sandbox(t);
  const ok = await box.runPlain(`bash ${sh(echoProvider)} 'echo://hello%20world%21'`);
  t.equal(ok.code, 0);
  t.equal(ok.stdout, 'hello world%21', 'only %20 is decoded, no newline added');
  const bad = await box.runPlain(`bash ${sh(echoProvider)} 'file:///etc/passwd'`);
  t.equal(bad.code, 4);
  t.equal(bad.stdout, '');
});
