import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, newProject, sharedCliEnv } from '../../helpers/cli-projects.js';

const env = sharedCliEnv();

t.test(
  'MCPBASH_STATE_DIR naming an existing directory: health, run-tool and the server leave it whole (D264)',
  async (t) => {
    const project = await newProject(t, env);
    writeFileSync(join(project, 'NOTES.md'), 'mine\n');
    const before = readdirSync(project).sort();
    const withState = { ...env, MCPBASH_STATE_DIR: project, MCPBASH_PROJECT_ROOT: project };
    t.equal((await cli(['health'], withState, project)).code, 0);
    t.equal((await cli(['run-tool', 'hello', '--allow-self'], withState, project)).code, 0);
    const session = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hello', arguments: {} } },
    ];
    const input = session.map((message) => `${JSON.stringify(message)}\n`).join('');
    const server = await cli([], { ...withState, MCPBASH_TOOL_ALLOWLIST: '*' }, project, input);
    t.equal(server.code, 0, server.stderr);
    t.match(server.stdout, /"id":2,"result"/, 'the server ran a tool in it');
    t.ok(existsSync(join(project, 'NOTES.md')), 'the project is still there');
    for (const name of before) t.ok(existsSync(join(project, name)), `${name} kept`);
    // What the runs leave: an empty calls/ (no spare call directories) and the UI flag file.
    const added = readdirSync(project).filter((name) => !before.includes(name) && name !== '.registry');
    t.same(added.sort(), ['calls', 'extensions.ui.support']);
    t.same(readdirSync(join(project, 'calls')), [], 'no call directory is left, spare or used');
  },
);
