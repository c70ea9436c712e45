import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { VERSION } from '../../build-info.js';
import { CliError, ExitCode, UsageError } from '../../cli/cli-error.js';
import { requireProject } from '../../cli/cli-project.js';
import type { CliIo, CommandContext, ParsedCommand } from '../../cli/command.js';
import { readTemplate, SCRIPT_MODE, writeNewFile } from '../../cli/scaffold/template-files.js';
import { selfExecutable } from '../../cli/self-command.js';
import { shellQuote } from '../../process/shell-quote.js';
import { formatBytes } from '../bundle/bundle-summary.js';
import { selfNativeBinary, serverCjs } from '../bundle/runtime-sources.js';
import { compareTree, readVendorManifest, VENDOR_MANIFEST } from './vendor-manifest.js';
import { installVendorTree, type VendorContent, wrapperText } from './vendor-tree.js';

const usage =
  'mcp-bash vendor [--output DIR] [--runtime binary|node] [--upgrade] [--verify] [--dry-run] [--verbose] ' +
  '[--project-root DIR]';

function verify(io: CliIo, vendorDir: string, verbose: boolean): number {
  const manifest = readVendorManifest(vendorDir);
  if (!manifest) {
    throw new CliError(
      `${join(vendorDir, VENDOR_MANIFEST)} is missing or unreadable`,
      ExitCode.Failure,
      "Run 'mcp-bash vendor' first.",
    );
  }
  const difference = compareTree(vendorDir, manifest);
  if (difference.matches) {
    io.stdout.write(
      `${vendorDir} matches vendor.json (mcp-bash ${manifest.version ?? '?'}, sha256 ${manifest.sha256})\n`,
    );
    if (verbose) for (const path of Object.keys(manifest.files ?? {})) io.stdout.write(`  ok ${path}\n`);
    return ExitCode.Ok;
  }
  io.stdout.write(`${vendorDir} does not match vendor.json:\n`);
  for (const [label, paths] of [
    ['changed', difference.changed],
    ['missing', difference.missing],
    ['added', difference.added],
  ] as const)
    for (const path of paths) io.stdout.write(`  ${label} ${path}\n`);
  io.stdout.write("Run 'mcp-bash vendor --upgrade' to vendor it afresh.\n");
  return ExitCode.Failure;
}

/** Asks on the terminal; anything but y/yes is a no. */
function confirm(io: CliIo, question: string): Promise<boolean> {
  io.stderr.write(`${question} [y/N] `);
  const lines = createInterface({ input: io.stdin, terminal: false });
  return new Promise((done) => {
    let answered = false;
    const finish = (answer: string) => {
      if (answered) return;
      answered = true;
      lines.close();
      done(/^y(es)?$/i.test(answer.trim()));
    };
    lines.once('line', finish);
    lines.once('close', () => finish(''));
  });
}

function runtimeContent(context: CommandContext, requested: string | undefined): VendorContent {
  const self = selfNativeBinary();
  const runtime = requested ?? (self ? 'binary' : 'node');
  if (runtime !== 'binary' && runtime !== 'node')
    throw new UsageError(`unknown runtime "${runtime}": use binary or node`, usage);
  if (runtime === 'binary' && !self) {
    throw new CliError(
      '--runtime binary needs the native mcp-bash binary; this one runs under node',
      ExitCode.Failure,
      'Run the release binary, or use --runtime node.',
    );
  }
  const version = { path: 'VERSION', mode: 0o644, data: Buffer.from(`${VERSION}\n`) };
  if (runtime === 'binary') return { runtime, files: [{ path: 'bin/mcp-bash', mode: 0o755, source: self }, version] };
  const launcher = Buffer.from(readTemplate(context.frameworkHome(), 'runtime', 'node-launcher.sh'));
  const cjs = serverCjs(context.embeddedServerCjs);
  const files = [
    { path: 'bin/mcp-bash', mode: 0o755, data: launcher },
    { path: 'lib/mcp-bash.cjs', mode: 0o755, data: cjs },
  ];
  return { runtime, files: [...files, version] };
}

function describe(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith('..') ? path : rel;
}

/** `--dry-run`: what would be written. */
function printPlan(io: CliIo, root: string, vendorDir: string, content: VendorContent, exists: boolean): void {
  io.stdout.write(
    `Would ${exists ? 'replace' : 'create'} ${describe(root, vendorDir)}/ (${content.runtime} runtime):\n`,
  );
  for (const file of [...content.files.map((entry) => entry.path), VENDOR_MANIFEST])
    io.stdout.write(`  write ${describe(root, join(vendorDir, file))}\n`);
  io.stdout.write(
    existsSync(join(root, 'run-server.sh')) ? '  keep run-server.sh (exists)\n' : '  create run-server.sh\n',
  );
}

/** Writes the tree and, when absent, run-server.sh; reports what was written. */
function install(
  context: CommandContext,
  root: string,
  vendorDir: string,
  content: VendorContent,
  verbose: boolean,
): void {
  const { io } = context;
  const manifest = installVendorTree(vendorDir, content, {
    version: VERSION,
    vendored_from: selfExecutable(),
    vendored_at: new Date().toISOString(),
  });
  io.stdout.write(`Vendored mcp-bash ${VERSION} (${content.runtime}) into ${vendorDir}\n`);
  for (const [path, hash] of Object.entries(manifest.files)) {
    const size = formatBytes(statSync(join(vendorDir, path)).size);
    io.stdout.write(verbose ? `  ${path} ${size} sha256:${hash}\n` : `  ${path} (${size})\n`);
  }
  const wrapper = join(root, 'run-server.sh');
  if (!existsSync(wrapper)) {
    const template = readTemplate(context.frameworkHome(), 'runtime', 'run-server.sh');
    writeNewFile(wrapper, wrapperText(template, root, vendorDir), SCRIPT_MODE);
    io.stdout.write(`Created ${wrapper}: clients start the server with it (MCPBASH_PROJECT_ROOT is set for them)\n`);
  }
  // --verify looks in .mcp-bash/ unless told otherwise: the hint must work as printed.
  const output = vendorDir === join(root, '.mcp-bash') ? '' : ` --output ${shellQuote(vendorDir)}`;
  io.stdout.write(`Check it later with 'mcp-bash vendor --verify${output}' (sha256 ${manifest.sha256}).\n`);
  if (content.runtime === 'binary') {
    // A newcomer committing .mcp-bash/ should know what the binary costs a repository.
    io.stdout.write(
      "The binary is large for a git repository: '--runtime node' vendors mcp-bash.cjs (a few MiB) instead " +
        '(clients then need node), or track .mcp-bash/bin/ with Git LFS.\n',
    );
  }
}

/** `mcp-bash vendor`: a self-contained copy of the runtime inside the project. */

export const command: ParsedCommand = {
  name: 'vendor',
  reads: ['project'],
  summary: 'Copy the mcp-bash runtime into the project (.mcp-bash/) with a run-server.sh wrapper',
  usage,
  options: {
    string: ['output', 'runtime', 'project-root'],
    boolean: ['upgrade', 'verify', 'dry-run', 'verbose'],
  },
  details: [
    'Options:',
    '  --output DIR        the vendored dir (default: <project>/.mcp-bash)',
    '  --runtime R         binary (default when run as the native binary): this binary;',
    '                      node (default under node): mcp-bash.cjs and a launcher running node',
    '  --upgrade           replace an existing vendored tree (otherwise asked on a terminal,',
    '                      refused elsewhere)',
    '  --verify            recompute the tree hash and compare it with vendor.json (exit 1 on any change)',
    '  --dry-run           list what would be written, write nothing',
    '  --verbose           list every file',
    '  --project-root DIR  the project (default: MCPBASH_PROJECT_ROOT, or found from here)',
    '',
    'Writes <dir>/bin/mcp-bash, VERSION and vendor.json {version, sha256, vendored_from,',
    'vendored_at, runtime, files}, where sha256 covers the sorted "relpath:filehash" lines;',
    'creates <project>/run-server.sh (if absent), which serves the project with it.',
    'Exit status: 0 done (or verified), 1 refused or changed, 2 a malformed command line.',
  ].join('\n'),
  async run(options, context) {
    const { io } = context;
    const root = requireProject(io, options.string('project-root'), context.config).layout.root;
    const vendorDir = resolve(io.cwd, options.string('output') ?? join(root, '.mcp-bash'));
    const verbose = options.boolean('verbose');
    if (options.boolean('verify')) return verify(io, vendorDir, verbose);
    const content = runtimeContent(context, options.string('runtime'));
    const exists = existsSync(vendorDir);
    if (options.boolean('dry-run')) {
      printPlan(io, root, vendorDir, content, exists);
      return ExitCode.Ok;
    }
    if (exists && !options.boolean('upgrade')) {
      const interactive = (io.stdin as { isTTY?: boolean }).isTTY === true && io.stderr.isTTY === true;
      if (!interactive || !(await confirm(io, `${vendorDir} already holds a vendored mcp-bash. Replace it?`))) {
        throw new CliError(
          `${vendorDir} already holds a vendored mcp-bash; left as it is`,
          ExitCode.Failure,
          'Pass --upgrade to replace it.',
        );
      }
    }
    install(context, root, vendorDir, content, verbose);
    return ExitCode.Ok;
  },
};
