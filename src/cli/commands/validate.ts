import { resolve } from 'node:path';
import { pathsConfig } from '../../config/slices.js';
import type { ProjectContext } from '../../project/project-context.js';
import { CliError, ExitCode } from '../cli-error.js';
import { requireProject } from '../cli-project.js';
import type { CliIo, CommandContext, ParsedCommand } from '../command.js';
import { writeJsonReport } from '../json-report.js';
import { inspectorCommand } from '../self-command.js';
import { colorEnabled, levelMark, type Palette, palette } from '../terminal.js';
import { type ServerDefaults, serverDefaults, validateProject } from '../validate/validate-project.js';
import type { Section, ValidationReport } from '../validate/validation-report.js';

const usage = 'mcp-bash validate [--project-root DIR] [--fix] [--json] [--explain-defaults] [--strict] [--inspector]';

const SECTION_TITLES: Record<Section, string> = {
  server: 'Server',
  tools: 'Tools',
  prompts: 'Prompts',
  resources: 'Resources',
  ui: 'UI resources (MCP Apps)',
  registrations: 'Registrations and hooks',
};

function printHuman(io: CliIo, report: ValidationReport, colors: Palette): void {
  io.stdout.write(`Validating project at ${report.root}...\n`);
  for (const section of Object.keys(SECTION_TITLES) as Section[]) {
    const messages = report.messages.filter((message) => message.section === section);
    if (messages.length === 0) continue;
    io.stdout.write(`\n${colors.bold(SECTION_TITLES[section])}\n`);
    for (const message of messages) io.stdout.write(`  ${levelMark(message.level, colors)} ${message.message}\n`);
  }
  io.stdout.write('\n');
}

/** The summary line; --fix is advertised only when it would repair something (permissions). */
function summary(report: ValidationReport, strict: boolean, fix: boolean): { text: string; failed: boolean } {
  const errors = report.count('error');
  const warnings = report.count('warning');
  const fixes = report.fixesApplied > 0 ? `${report.fixesApplied} fix(es) applied, ` : '';
  const findings = report.fixable === 1 ? '1 finding' : `${report.fixable} findings`;
  const repairs = report.fixable > 0 ? ` 'mcp-bash validate --fix' repairs the file permissions (${findings}).` : '';
  if (errors > 0) {
    const advice = fix ? ' Fix them by hand.' : repairs;
    return { text: `${errors} error(s) found (${fixes}warnings: ${warnings}).${advice}`, failed: true };
  }
  if (strict && warnings > 0)
    return { text: `${warnings} warning(s) found; --strict counts them as failures.${repairs}`, failed: true };
  return { text: `All checks passed (${fixes}warnings: ${warnings}).${repairs}`, failed: false };
}

function explainDefaults(io: CliIo, defaults: ServerDefaults): void {
  io.stdout.write(
    [
      `Defaults used: name=${defaults.name}, title=${defaults.title}, version=${defaults.version}`,
      `  name:    ${defaults.sources.name}`,
      `  title:   ${defaults.sources.title}`,
      `  version: ${defaults.sources.version} (server.meta.json "version", else a VERSION file, else ` +
        `package.json, else 0.0.0)`,
      '',
    ].join('\n'),
  );
}

/** The `--json` document (schema: test/helpers/cli-output-schemas.ts validateReportSchema). */
function validateJson(report: ValidationReport, strict: boolean, defaults: ServerDefaults): object {
  return {
    projectRoot: report.root,
    errors: report.count('error'),
    warnings: report.count('warning'),
    fixesApplied: report.fixesApplied,
    strict,
    defaults: { name: defaults.name, title: defaults.title, version: defaults.version },
    messages: report.messages,
  };
}

/**
 * The project to check. With --json a missing one is still a report on stdout (one error,
 * empty defaults), as `health` answers; the message also goes to stderr. Returns the exit
 * status then.
 */
function locateProject(
  context: CommandContext,
  flag: string | undefined,
  json: boolean,
  strict: boolean,
): ProjectContext | number {
  try {
    return requireProject(context.io, flag, context.config);
  } catch (error) {
    if (!json || !(error instanceof CliError)) throw error;
    const { io } = context;
    io.stderr.write(`mcp-bash validate: ${error.message}\n${error.hint ? `${error.hint}\n` : ''}`);
    const named = flag || pathsConfig(context.config.values).projectRoot;
    writeJsonReport(io.stdout, {
      projectRoot: resolve(io.cwd, named || '.'),
      errors: 1,
      warnings: 0,
      fixesApplied: 0,
      strict,
      defaults: { name: '', title: '', version: '' },
      messages: [{ level: 'error', section: 'server', message: error.message }],
    });
    return error.exitCode;
  }
}

/** `mcp-bash validate`: checks a project's metadata, scripts and registrations. */

export const command: ParsedCommand = {
  name: 'validate',
  reads: ['project', 'registry', 'providers', 'cli:validate'],
  summary: 'Check a project: metadata (JSON Schemas), scripts, registrations and hooks',
  usage,
  options: {
    string: ['project-root'],
    boolean: ['fix', 'json', 'explain-defaults', 'strict', 'inspector'],
  },
  details: [
    'Options:',
    '  --project-root DIR   the project (default: MCPBASH_PROJECT_ROOT, or found from here)',
    '  --fix                repair what is safe to repair: chmod +x on tool scripts, chmod go-w',
    '  --json               one JSON line: {schemaVersion, projectRoot, errors, warnings, fixesApplied,',
    '                       strict, defaults, messages:[{level, section, message, file, field}]}',
    '                       (also when no project is found: one error message, exit 1)',
    '  --explain-defaults   show where the server name, title and version come from',
    '  --strict             warnings fail the run too',
    '  --inspector          print the MCP Inspector command that checks the live server',
    '',
    'Exit status: 0 when no errors (and, with --strict, no warnings); 1 otherwise.',
  ].join('\n'),
  async run(options, context) {
    const { io } = context;
    const strict = options.boolean('strict');
    const project = locateProject(context, options.string('project-root'), options.boolean('json'), strict);
    if (typeof project === 'number') return project;
    const report = validateProject({
      project,
      home: context.frameworkHome(),
      config: context.config,
      fix: options.boolean('fix'),
    });
    const defaults = serverDefaults(project, report);
    const result = summary(report, strict, options.boolean('fix'));
    if (options.boolean('json')) {
      writeJsonReport(io.stdout, validateJson(report, strict, defaults));
      return result.failed ? ExitCode.Failure : ExitCode.Ok;
    }
    const colors = palette(colorEnabled(io.stdout, io.env));
    printHuman(io, report, colors);
    if (options.boolean('explain-defaults')) explainDefaults(io, defaults);
    io.stdout.write(`${result.failed ? colors.red(result.text) : colors.green(result.text)}\n`);
    if (options.boolean('inspector')) {
      io.stdout.write(
        `\nTo check the live server with the MCP Inspector (CLI mode):\n  ` +
          `${inspectorCommand(project.layout.root, 'cli', io.env)}\n`,
      );
    }
    return result.failed ? ExitCode.Failure : ExitCode.Ok;
  },
};
