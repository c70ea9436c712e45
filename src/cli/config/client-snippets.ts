import { shellQuote } from '../../runner/shell-quote.js';
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

/** One MCP client: a label, where its config lives, and the snippet to paste. */
export interface ClientFormat {
  readonly id: string;
  readonly label: string;
  readonly where: string;
  render(launch: ServerLaunch): string;
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
    label: 'Claude CLI',
    where: 'run in a shell',
    render: (l) => `claude mcp add-json ${shellQuote(l.name)} ${shellQuote(JSON.stringify(stdioEntry(l, true)))}\n`,
  },
  {
    id: 'windsurf',
    label: 'Windsurf',
    where: '~/.codeium/windsurf/mcp_config.json',
    render: (l) => json({ mcpServers: { [l.name]: stdioEntry(l, false) } }),
  },
  { id: 'librechat', label: 'LibreChat', where: 'librechat.yaml', render: librechatYaml },
  {
    id: 'vscode',
    label: 'VS Code',
    where: '.vscode/mcp.json',
    render: (l) => json({ servers: { [l.name]: stdioEntry(l, true) } }),
  },
];

/** The client format with this id (`claude-desktop`, ...), if there is one. */
export function findClient(id: string): ClientFormat | undefined {
  return CLIENTS.find((client) => client.id === id);
}
