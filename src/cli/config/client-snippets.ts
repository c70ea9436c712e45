import { shellQuote } from '../../process/shell-quote.js';
import type { SelfCommand } from '../self-command.js';

/** What every client config needs: the server's name, how to start it, its environment. */
export interface ServerLaunch {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The launch of a project's server: this binary, MCPBASH_PROJECT_ROOT and MCPBASH_TOOL_ALLOWLIST. */
export function serverLaunch(name: string, root: string, self: SelfCommand): ServerLaunch {
  return {
    name,
    command: self.command,
    args: self.args,
    env: { MCPBASH_PROJECT_ROOT: root, MCPBASH_TOOL_ALLOWLIST: '*' },
  };
}

function stdioEntry(launch: ServerLaunch, typed: boolean): Record<string, unknown> {
  return { ...(typed ? { type: 'stdio' } : {}), command: launch.command, args: launch.args, env: launch.env };
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function librechatYaml(launch: ServerLaunch): string {
  // JSON strings are valid YAML double-quoted scalars.
  const q = (text: string) => JSON.stringify(text);
  return [
    'mcpServers:',
    `  ${q(launch.name)}:`,
    '    type: stdio',
    `    command: ${q(launch.command)}`,
    `    args: [${launch.args.map(q).join(', ')}]`,
    '    env:',
    ...Object.entries(launch.env).map(([key, value]) => `      ${key}: ${q(value)}`),
    '',
  ].join('\n');
}

/** 1.x's snippet for Claude CLI and LibreChat: the launch as `{name, command, env}` (args only when there are some). */
function launchObject(launch: ServerLaunch): string {
  return json({
    name: launch.name,
    command: launch.command,
    ...(launch.args.length > 0 ? { args: launch.args } : {}),
    env: launch.env,
  });
}

/** One MCP client: a label, where its config lives, and the snippet to paste. */
export interface ClientFormat {
  readonly id: string;
  /** Other names `--client` accepts. */
  readonly aliases?: readonly string[];
  readonly label: string;
  readonly where: string;
  /** 1.x's snippet (what `--client NAME` prints). */
  render(launch: ServerLaunch): string;
  /** The client's own form, when it differs (`--native`): a command line, YAML. */
  readonly native?: { readonly where: string; render(launch: ServerLaunch): string };
}

/** Every client `config --client` knows, in `--show` order. */
export const CLIENTS: readonly ClientFormat[] = [
  {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    where: 'claude_desktop_config.json',
    render: (l) => json({ mcpServers: { [l.name]: stdioEntry(l, false) } }),
  },
  {
    id: 'cursor',
    label: 'Cursor',
    where: '~/.cursor/mcp.json or .cursor/mcp.json',
    render: (l) => json({ mcpServers: { [l.name]: stdioEntry(l, false) } }),
  },
  {
    id: 'claude-cli',
    aliases: ['claude-code'],
    label: 'Claude CLI',
    where: 'the server for `claude mcp add-json` (--native prints the whole command)',
    render: launchObject,
    native: {
      where: 'run in a shell',
      render: (l) => `claude mcp add-json ${shellQuote(l.name)} ${shellQuote(JSON.stringify(stdioEntry(l, true)))}\n`,
    },
  },
  {
    id: 'windsurf',
    label: 'Windsurf',
    where: '~/.codeium/windsurf/mcp_config.json',
    render: (l) => json({ mcpServers: { [l.name]: stdioEntry(l, false) } }),
  },
  {
    id: 'librechat',
    label: 'LibreChat',
    where: 'the server for librechat.yaml (--native prints it as YAML)',
    render: launchObject,
    native: { where: 'librechat.yaml', render: librechatYaml },
  },
  {
    id: 'vscode',
    label: 'VS Code',
    where: '.vscode/mcp.json',
    render: (l) => json({ servers: { [l.name]: stdioEntry(l, true) } }),
  },
];

/** The client format with this id or alias (`claude-desktop`, `claude-code`, ...), if there is one. */
export function findClient(id: string): ClientFormat | undefined {
  return CLIENTS.find((client) => client.id === id || client.aliases?.includes(id));
}

/** A client's snippet and where it goes: 1.x's, or with `native` the client's own form. */
export function clientSnippet(
  client: ClientFormat,
  launch: ServerLaunch,
  native: boolean,
): { where: string; text: string } {
  const form = native && client.native ? client.native : client;
  return { where: form.where, text: form.render(launch) };
}
