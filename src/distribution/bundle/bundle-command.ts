import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CliError, ExitCode, UsageError } from '../../cli/cli-error.js';
import { requireProject } from '../../cli/cli-project.js';
import type { CliIo, ParsedCommand } from '../../cli/command.js';
import { colorEnabled, palette } from '../../cli/terminal.js';
import { readFileHead } from '../../fs/file-head.js';
import { isSystemError, systemErrorLine } from '../../fs/system-errors.js';
import { type BundlePlan, planBundle } from './bundle-plan.js';
import { bundleSummary, verboseDetails } from './bundle-summary.js';
import { PLATFORMS, type Platform } from './runtime-sources.js';
import type { RuntimeKind } from './server-launch.js';
import { archiveTime, writeZip } from './zip-writer.js';

const usage =
  'mcp-bash bundle [--output DIR] [--name N] [--version V] [--platform darwin|linux|win32|all] [--runtime ' +
  'node|binary] [--binaries DIR] [--validate] [--verbose] [--include-gojq] [--project-root DIR]';

function platformsOf(value: string | undefined): Platform[] {
  if (value === undefined || value === 'all') return [...PLATFORMS];
  if ((PLATFORMS as readonly string[]).includes(value)) return [value as Platform];
  throw new UsageError(`unknown platform "${value}": use darwin, linux, win32 or all`, usage);
}

function runtimeOf(value: string | undefined): RuntimeKind {
  if (value === undefined || value === 'node' || value === 'binary') return value ?? 'node';
  throw new UsageError(`unknown runtime "${value}": use node or binary`, usage);
}

function printWarnings(io: CliIo, warnings: readonly string[], notes: readonly string[]): void {
  const colors = palette(colorEnabled(io.stderr, io.env));
  for (const warning of warnings) io.stderr.write(`${colors.yellow('warning:')} ${warning}\n`);
  for (const note of notes) io.stderr.write(`note: ${note}\n`);
}

function isZipFile(path: string): boolean {
  const head = readFileHead(path, 4);
  return head.length === 4 && head.readUInt32LE(0) === 0x04034b50;
}

/** --output must be a directory (or not exist yet); an existing file there is replaced only if it is a bundle. */
function checkOutput(outputDir: string, path: string): void {
  const dir = statSync(outputDir, { throwIfNoEntry: false });
  if (dir && !dir.isDirectory())
    throw new CliError(
      `--output ${outputDir} is a file, not a directory`,
      ExitCode.Failure,
      'Pass the directory to write <name>-<version>.mcpb into (it is created when missing).',
    );
  const existing = statSync(path, { throwIfNoEntry: false });
  if (!existing) return;
  if (!existing.isFile() || (existing.size > 0 && !isZipFile(path)))
    throw new CliError(
      `${path} exists and is not a bundle (${existing.isFile() ? 'not a zip file' : 'not a file'}); ` +
        'refusing to replace it',
      ExitCode.Failure,
      'Move it away, or pass --output DIR or --version V to write the bundle elsewhere.',
    );
}

/** Writes the planned bundle into `outputDir` (created if missing) and prints the summary. */
function writeBundle(
  io: CliIo,
  plan: BundlePlan,
  outputDir: string,
  platforms: readonly Platform[],
  time: number,
): void {
  const path = join(outputDir, plan.fileName);
  checkOutput(outputDir, path);
  let bytes: number;
  try {
    mkdirSync(outputDir, { recursive: true });
    bytes = writeZip(plan.entries, path, time);
  } catch (error) {
    const cause = isSystemError(error) ? systemErrorLine(error) : (error as Error).message;
    throw new CliError(`cannot write ${path}: ${cause}`, ExitCode.Failure);
  }
  const colors = palette(colorEnabled(io.stdout, io.env));
  io.stdout.write(bundleSummary({ ...plan, path, bytes, platforms }, colors));
}

/** `mcp-bash bundle`: packs the project into an MCP Bundle (.mcpb) for Claude Desktop and other clients. */

export const command: ParsedCommand = {
  name: 'bundle',
  reads: ['project', 'registry', 'json-tool', 'cli:bundle'],
  summary: 'Pack the project into an MCP Bundle (.mcpb) that Claude Desktop installs',
  usage,
  options: {
    string: ['output', 'name', 'version', 'platform', 'runtime', 'binaries', 'project-root'],
    boolean: ['validate', 'verbose', 'include-gojq'],
  },
  details: [
    'Options:',
    '  --output DIR       where to write <name>-<version>.mcpb (default: the current directory;',
    '                     created if missing; an existing bundle of that name is replaced)',
    '  --name N           the bundle name (default: MCPB_NAME in mcpb.conf, else server.meta.json name)',
    '  --version V        a semantic version (default: MCPB_VERSION, VERSION, server.meta.json version, 0.1.0)',
    '  --platform P       darwin, linux, win32 or all (default all): compatibility.platforms',
    '  --runtime R        node (default): mcp-bash.cjs, run by the Node the client ships (small,',
    '                     every OS); binary: native mcp-bash binaries, for hosts without Node',
    '  --binaries DIR     the release as `npm run release` writes it (dist/release/: the archives are',
    '                     read, checked against SHA256SUMS), or binaries named mcp-bash-linux-x64, ...',
    '                     for --runtime binary; the running binary provides its own platform',
    '  --validate         check everything and print the bundle name, without writing it',
    '  --verbose          show where each field came from and every file in the bundle',
    '  --include-gojq     accepted for 1.x scripts; adds nothing: 2.x tools need no jq (built-in jq)',
    '  --project-root DIR the project (default: MCPBASH_PROJECT_ROOT, or found from here)',
    '',
    'Each field comes from the first of: the flag, mcpb.conf (KEY="value" lines, never run),',
    'VERSION (version only), server.d/server.meta.json, git (author, repository), a default.',
    'The archive is reproducible: sorted entries, one timestamp (SOURCE_DATE_EPOCH, else',
    '1980-01-01), modes 0644/0755. docs/BUNDLES.md lists every mcpb.conf key.',
    '',
    'Exit status: 0 written (or valid with --validate), 1 the project cannot make a valid',
    'bundle (the message says what to set), 2 a malformed command line.',
  ].join('\n'),
  async run(options, context) {
    const { io } = context;
    const platforms = platformsOf(options.string('platform'));
    const runtime = runtimeOf(options.string('runtime'));
    const binaries = options.string('binaries');
    if (binaries !== undefined && runtime !== 'binary')
      throw new UsageError('--binaries goes with --runtime binary', usage);
    if (options.boolean('include-gojq'))
      io.stderr.write(
        'note: --include-gojq adds nothing in 2.x: tools use jq or gojq when installed, else the jq built into ' +
          'mcp-bash\n',
      );
    const project = requireProject(io, options.string('project-root'), context.config);
    const time = archiveTime(context.config.values.SOURCE_DATE_EPOCH);
    const outputDir = resolve(io.cwd, options.string('output') ?? '.');
    const workDir = mkdtempSync(join(tmpdir(), 'mcp-bash-bundle-'));
    try {
      const plan = await planBundle({
        root: project.layout.root,
        flags: { name: options.string('name'), version: options.string('version') },
        platforms,
        runtime,
        binariesDir: binaries === undefined ? undefined : resolve(io.cwd, binaries),
        outputDir,
        workDir,
        env: io.env,
        home: context.frameworkHome(),
        embeddedServerCjs: context.embeddedServerCjs,
        time,
      });
      printWarnings(io, plan.warnings, plan.notes);
      if (options.boolean('verbose')) io.stderr.write(verboseDetails(plan.fields, plan.entries, plan.leftOut));
      if (options.boolean('validate')) {
        io.stdout.write(`Validation passed. Bundle would be: ${plan.fileName}\n`);
        return ExitCode.Ok;
      }
      writeBundle(io, plan, outputDir, platforms, time);
      return ExitCode.Ok;
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  },
};
