import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ensureConformance } from '../../../release/pkg-tool.mjs';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startHttpServer } from '../../helpers/http-server.js';
import { node22Path } from '../../helpers/mcpb.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

// The official MCP conformance runner, server mode, every scenario, against `serve --http` on
// test/fixtures/projects/conformance (ordinary mcp-bash tools, prompts and resources named as
// the scenarios call them). The runners need Node 22: the pinned build Node, which `npm ci`
// fetched with them (release/pkg-tool.mjs installs test/conformance/ into .cache/).

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
}

const RUNNERS = [
  { label: '0.1.16 --suite all', pkg: '@modelcontextprotocol/conformance', args: ['--suite', 'all'] },
  {
    label: 'pre-release, --suite all --spec-version 2025-11-25',
    pkg: 'conformance-next',
    args: ['--suite', 'all', '--spec-version', '2025-11-25'],
  },
];

/** Runs one runner against `url`; the checks of each scenario it ran, by scenario name. */
async function runConformance(node: string, pkg: string, url: string, args: string[]): Promise<Map<string, Check[]>> {
  const out = scratchDir('mcpbash-conformance-');
  const cli = join(ensureConformance(), pkg, 'dist', 'index.js');
  const child = spawn(node, [cli, 'server', '--url', url, '-o', out, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const scenarios = new Map<string, Check[]>();
  for (const dir of readdirSync(out)) {
    const file = join(out, dir, 'checks.json');
    // Output directories are `server-<scenario>-<timestamp>`.
    const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    if (existsSync(file)) scenarios.set(scenario, JSON.parse(readFileSync(file, 'utf8')) as Check[]);
  }
  if (scenarios.size === 0) throw new Error(`the runner reported no scenario:\n${output}`);
  return scenarios;
}

const node = node22Path();
t.test('the official conformance runner', { skip: node ? false : 'no Node 22 binary in .cache/' }, async (t) => {
  const server = await startHttpServer(t, {
    env: toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('conformance'), MCPBASH_TOOL_ALLOWLIST: '*' }),
  });
  for (const runner of RUNNERS) {
    t.test(runner.label, async (t) => {
      const scenarios = await runConformance(node as string, runner.pkg, server.url, runner.args);
      t.ok(scenarios.size >= 30, `${scenarios.size} scenarios ran`);
      // Every scenario passes: no check fails.
      for (const [scenario, checks] of scenarios) {
        const failed = checks.filter((check) => check.status === 'FAILURE');
        t.same(
          failed.map((check) => `${check.id}: ${check.errorMessage ?? ''}`),
          [],
          `${scenario}: ${checks.length} checks`,
        );
      }
    });
  }
});
