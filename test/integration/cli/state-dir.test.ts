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
    const server = await cli([], withState, project, '');
    t.equal(server.code, 0, server.stderr);
    t.ok(existsSync(join(project, 'NOTES.md')), 'the project is still there');
    for (const name of before) t.ok(existsSync(join(project, name)), `${name} kept`);
  },
);
