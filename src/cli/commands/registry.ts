import { minimalModeReason } from '../../config/server-config.js';
import { resolveToolsSubtree } from '../../project/tools/tools-subtree.js';
import { CliError, ExitCode } from '../cli-error.js';
import { cliLog, cliRegistries, requireProject, withStateDir } from '../cli-project.js';
import type { CommandContext } from '../command.js';
import { writeJsonReport } from '../json-report.js';
import { jsonToolInfo } from '../json-tool-info.js';
import type { OptionSpec, ParsedOptions } from '../parse-options.js';
import { withProgress } from '../progress.js';
import { CACHE_FILES, cacheStatus, refreshAll } from '../registry/registry-report.js';
import { commandGroup, type Subcommand } from '../subcommands.js';

const refreshUsage = 'mcp-bash registry refresh [--project-root DIR] [--no-notify] [--quiet] [--filter PATH]';
const statusUsage = 'mcp-bash registry status [--project-root DIR]';
const refreshOptions: OptionSpec = { string: ['project-root', 'filter'], boolean: ['notify', 'quiet'] };
const statusOptions: OptionSpec = { string: ['project-root'] };

/** Exit 2 (fatal) when there is no project: 1.x's contract for `registry`. */
const FATAL = 2;

async function refresh(options: ParsedOptions, context: CommandContext): Promise<number> {
  const { io } = context;
  const { config } = context;
  const project = requireProject(io, options.string('project-root'), config, FATAL);
  const filterOption = options.string('filter') ?? config.values.MCPBASH_REGISTRY_REFRESH_PATH;
  const filter = filterOption === undefined ? undefined : resolveToolsSubtree(project.layout, filterOption);
  if (typeof filter === 'object')
    throw new CliError(
      `--filter ${filter.error}`,
      ExitCode.Usage,
      'Give a directory under tools/, e.g. --filter tools/my-tool',
    );
  const quiet = options.boolean('quiet');
  const home = context.frameworkHome();
  const log = cliLog(io, config, project, quiet);
  const kinds = await withStateDir(config, false, (stateDir) =>
    withProgress(io, `refreshing the registries of ${project.layout.root}`, quiet, () =>
      refreshAll(
        cliRegistries({ project, home, config, env: io.env, stateDir, log, toolsSubtree: filter ?? '' }),
        filter,
      ),
    ),
  );
  const report = {
    ...kinds,
    notificationsSent: false,
    mode: minimalModeReason(config.values) ? 'minimal' : 'full',
  };
  writeJsonReport(io.stdout, report);
  return Object.values(kinds).some((kind) => kind.status === 'failed') ? ExitCode.Failure : ExitCode.Ok;
}

async function status(options: ParsedOptions, context: CommandContext): Promise<number> {
  const { io } = context;
  const project = requireProject(io, options.string('project-root'), context.config, FATAL);
  const { layout } = project;
  const json = jsonToolInfo(context.config, io.env);
  const report: Record<string, unknown> = {
    projectRoot: layout.root,
    jsonTool: json.name,
    jsonToolBuiltin: json.builtin,
  };
  for (const [key, file] of CACHE_FILES) report[key] = cacheStatus(layout, file);
  writeJsonReport(io.stdout, report);
  return ExitCode.Ok;
}

const subcommands: Subcommand[] = [
  {
    name: 'refresh',
    summary: 'Rebuild .registry/*.json now and print what each kind holds',
    usage: refreshUsage,
    options: refreshOptions,
    details: [
      'Options:',
      '  --project-root DIR  the project (default: MCPBASH_PROJECT_ROOT, or found from here)',
      '  --filter PATH       scan only the tools under PATH (a literal sub-path of tools/; no globs;',
      '                      default MCPBASH_REGISTRY_REFRESH_PATH); tools elsewhere are kept as',
      '                      the previous .registry/tools.json had them',
      '  --quiet             no warnings or progress on stderr',
      '  --no-notify         accepted for 1.x scripts; a CLI refresh notifies no client anyway',
      '',
      'Prints {"tools":{status,count[,error]},"resources":...,"resourceTemplates":...,"prompts":...,',
      '"ui":...,"notificationsSent":false,"mode":"full"} (ui: the MCP Apps UI resources).',
      'Exit status: 0 all kinds ok, 1 a kind failed (its error is in the JSON), 2 no project.',
    ].join('\n'),
    run: refresh,
  },
  {
    name: 'status',
    summary: 'Show the registry cache files: count, hash, modification time',
    usage: statusUsage,
    options: statusOptions,
    details: [
      'Prints {"projectRoot","jsonTool","jsonToolBuiltin","tools":{status,path,count,hash,mtime},...}',
      'with status present, missing or invalid (with its reason) for each cache file. Exit 2 when there is',
      'no project.',
    ].join('\n'),
    run: status,
  },
];

/** `mcp-bash registry refresh|status`. */
export const command = commandGroup({
  name: 'registry',
  reads: ['registry', 'project', 'logging', 'json-tool', 'cli:registry'],
  // 1.x exits 1 on a malformed command line here (scripts may test for it).
  usageExitCode: 1,
  summary: 'Rebuild the registry caches (.registry/) or show their state',
  usage: 'mcp-bash registry refresh|status [options]',
  subcommands,
});
