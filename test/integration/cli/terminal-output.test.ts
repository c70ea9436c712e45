import { spawnSync } from 'node:child_process';
import t from 'tap';
import { cli, newProject, sharedCliEnv } from '../../helpers/cli-projects.js';
import { binaryCommand } from '../../helpers/paths.js';

const env = sharedCliEnv();
// sharedCliEnv sets NO_COLOR for every other test; these runs decide it themselves.
const { NO_COLOR: _noColor, ...colourEnv } = env;
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Runs the binary inside a pseudo-terminal (util-linux `script`), returning what it printed. */
function onTerminal(args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): string {
  const { command, prefix } = binaryCommand();
  const line = [command, ...prefix, ...args].map(shellQuote).join(' ');
  const run = spawnSync('script', ['-qefc', line, '/dev/null'], {
    cwd,
    env: { ...colourEnv, ...extraEnv, TERM: 'xterm' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return run.stdout;
}

t.test(
  'human output is coloured on a terminal, and plain with NO_COLOR or through a pipe',
  { skip: hasScript ? false : 'util-linux script is not installed' },
  async (t) => {
    const root = await newProject(t, env);
    const coloured = onTerminal(['validate'], root);
    t.match(coloured, /\u001b\[32m✓\u001b\[39m/, 'a green tick on a terminal');
    const plain = onTerminal(['validate'], root, { NO_COLOR: '1' });
    t.match(plain, /✓ tools\/hello\/tool\.sh/);
    t.notMatch(plain, /\u001b\[/, 'NO_COLOR: no escape sequences even on a terminal');
    const piped = await cli(['validate'], colourEnv, root);
    t.notMatch(piped.stdout, /\u001b\[/, 'a pipe gets no colours');
  },
);

t.test('FORCE_COLOR with NO_COLOR: no colours and no Node warning about NO_COLOR being ignored', async (t) => {
  const root = await newProject(t, env);
  const both = { ...colourEnv, FORCE_COLOR: '1', NO_COLOR: '1' };
  const run = await cli(['validate'], both, root);
  t.equal(run.code, 0, run.stderr);
  t.notMatch(run.stdout, /\u001b\[/, 'NO_COLOR wins');
  t.notMatch(run.stderr, /Warning|NO_COLOR/, 'nothing about the colour variables on stderr');
  const ping = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`;
  const server = await cli([], both, root, ping);
  t.match(server.stdout, /"id":1/);
  t.notMatch(server.stderr, /Warning|NO_COLOR/, 'the server neither');
});
