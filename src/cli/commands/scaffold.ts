import { ExitCode, UsageError } from '../cli-error.js';
import { requireProject } from '../cli-project.js';
import type { CommandContext } from '../command.js';
import { checkName } from '../names.js';
import type { OptionSpec } from '../parse-options.js';
import {
  type ScaffoldInput,
  type ScaffoldResult,
  scaffoldCompletion,
  scaffoldPrompt,
  scaffoldResource,
  scaffoldTest,
  scaffoldTool,
} from '../scaffold/scaffold-kinds.js';
import { scaffoldStandaloneUi, scaffoldToolUi } from '../scaffold/scaffold-ui.js';
import { commandGroup, type Subcommand } from '../subcommands.js';
import { colorEnabled, palette } from '../terminal.js';

interface KindSpec {
  readonly name: string;
  readonly what: string;
  readonly summary: string;
  readonly creates: string;
  readonly takesName: boolean;
  readonly flags?: readonly string[];
  make(input: ScaffoldInput): ScaffoldResult;
}

function report(context: CommandContext, kind: string, result: ScaffoldResult): void {
  const { io } = context;
  const colors = palette(colorEnabled(io.stdout, io.env));
  io.stdout.write(`Scaffolded ${kind}:\n`);
  for (const path of result.created) io.stdout.write(`${colors.green('Created')} ${path}\n`);
  for (const note of result.notes) io.stdout.write(`${note}\n`);
}

/** `scaffold tool <name> --ui`: the tool's files, then its view. */
function withToolUi(tool: ScaffoldResult, input: ScaffoldInput): ScaffoldResult {
  const ui = scaffoldToolUi(input, input.name);
  return { created: [...tool.created, ...ui.created], notes: [...tool.notes, ...ui.notes] };
}

function subcommand(spec: KindSpec): Subcommand {
  const usage =
    `mcp-bash scaffold ${spec.name}${spec.takesName ? ' <name>' : ''} [--project-root DIR]` +
    `${spec.flags?.includes('ui') ? ' [--ui]' : ''}`;
  const optionSpec: OptionSpec = { string: ['project-root'], boolean: [...(spec.flags ?? [])] };
  return {
    name: spec.name,
    summary: spec.summary,
    usage,
    options: optionSpec,
    positionals: spec.takesName ? [{ name: 'name', missing: `a ${spec.what} name is required` }] : [],
    details: [
      ...(spec.takesName
        ? ['Arguments:', `  <name>               the ${spec.what} name: 1-64 letters, digits, _ or -`]
        : []),
      'Options:',
      '  --project-root DIR   the project (default: MCPBASH_PROJECT_ROOT, or found from the current directory)',
      ...(spec.flags?.includes('ui')
        ? ['  --ui                 also an MCP Apps view in tools/<name>/ui/ (index.html, ui.meta.json)']
        : []),
      '',
      `Creates ${spec.creates}. Refuses to overwrite anything that exists (exit 1).`,
    ].join('\n'),
    async run(options, context) {
      const [name] = options.positionals;
      const project = requireProject(context.io, options.string('project-root'), context.config);
      const input: ScaffoldInput = {
        project,
        home: context.frameworkHome(),
        config: context.config,
        name: spec.takesName ? checkName(name as string, spec.what) : '',
      };
      report(context, spec.what, options.boolean('ui') ? withToolUi(spec.make(input), input) : spec.make(input));
      return ExitCode.Ok;
    },
  };
}

const kinds: KindSpec[] = [
  {
    name: 'tool',
    what: 'tool',
    summary: 'Add a tool: tools/<name>/ with tool.sh, tool.meta.json, README.md, smoke.sh',
    creates: 'tools/<name>/tool.sh, tool.meta.json, README.md and smoke.sh',
    takesName: true,
    flags: ['ui'],
    make: scaffoldTool,
  },
  {
    name: 'prompt',
    what: 'prompt',
    summary: 'Add a prompt template: prompts/<name>/<name>.txt and <name>.meta.json',
    creates: 'prompts/<name>/<name>.txt ({{var}} placeholders), <name>.meta.json and README.md',
    takesName: true,
    make: scaffoldPrompt,
  },
  {
    name: 'resource',
    what: 'resource',
    summary: 'Add a file resource: resources/<name>/<name>.txt and <name>.meta.json',
    creates:
      'resources/<name>/<name>.txt and <name>.meta.json (its file:// URI; notes in its _comment, since every ' +
      'file in resources/ is a resource)',
    takesName: true,
    make: scaffoldResource,
  },
  {
    name: 'completion',
    what: 'completion',
    summary: 'Add a completion script, registered in server.d/register.json',
    creates:
      'completions/<name>/completion.sh and README.md, and registers the completion in server.d/register.json ' +
      '(or appends it to an existing register.sh when there is no register.json)',
    takesName: true,
    make: scaffoldCompletion,
  },
  {
    name: 'test',
    what: 'test harness',
    summary: 'Add a test harness: test/run.sh and test/README.md',
    creates: 'test/run.sh (run_test, run_dry_run, skip_test over run-tool) and test/README.md',
    takesName: false,
    make: scaffoldTest,
  },
];

const uiOptions: OptionSpec = { string: ['project-root', 'tool'] };
const uiUsage = 'mcp-bash scaffold ui <name> [--project-root DIR] | scaffold ui [<name>] --tool <tool>';

/** `scaffold ui <name>` (standalone, in ui/<name>/) or `scaffold ui --tool <tool>` (in tools/<tool>/ui/). */
const uiSubcommand: Subcommand = {
  name: 'ui',
  summary: 'Add an MCP Apps view: ui/<name>/ (or tools/<tool>/ui/ with --tool)',
  usage: uiUsage,
  options: uiOptions,
  positionals: [{ name: 'name' }],
  details: [
    'Arguments:',
    "  <name>               the view name: 1-64 letters, digits, _ or - (with --tool: the tool's)",
    'Options:',
    '  --tool TOOL          put the view in tools/TOOL/ui/: the tool shows it without metadata',
    '  --project-root DIR   the project (default: MCPBASH_PROJECT_ROOT, or found from the current directory)',
    '',
    'Creates index.html (a working view to edit), ui.meta.json (description, CSP origins) and,',
    'for a standalone view, README.md. Refuses to overwrite anything that exists (exit 1).',
  ].join('\n'),
  async run(options, context) {
    const [name] = options.positionals;
    const tool = options.string('tool');
    if (name === undefined && tool === undefined) throw new UsageError('a view name (or --tool) is required', uiUsage);
    const project = requireProject(context.io, options.string('project-root'), context.config);
    const input: ScaffoldInput = {
      project,
      home: context.frameworkHome(),
      config: context.config,
      name: checkName(name ?? (tool as string), 'UI'),
    };
    const result = tool === undefined ? scaffoldStandaloneUi(input) : scaffoldToolUi(input, checkName(tool, 'tool'));
    report(context, 'UI', result);
    return ExitCode.Ok;
  },
};

/** `mcp-bash scaffold <kind> <name>`: new files in a project, from the shipped templates. */
export const command = commandGroup({
  name: 'scaffold',
  reads: ['project', 'registry'],
  // 1.x exits 1 on a malformed command line here (scripts may test for it).
  usageExitCode: 1,
  summary: 'Add a tool, prompt, resource, completion, UI view or test harness to a project',
  usage: 'mcp-bash scaffold tool|prompt|resource|completion|ui <name> | scaffold test',
  subcommands: [...kinds.map(subcommand), uiSubcommand],
});
