import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

/** A PATH of links to every program on this PATH except jq and gojq: a host without jq. */
function pathWithoutJq(): string {
  const dir = scratchDir('mcpbash-nojq-');
  const linked = new Set(['jq', 'gojq']);
  for (const source of (process.env.PATH ?? '').split(':')) {
    let names: string[];
    try {
      names = readdirSync(source);
    } catch {
      continue;
    }
    for (const name of names) {
      if (linked.has(name)) continue;
      linked.add(name);
      symlinkSync(join(source, name), join(dir, name));
    }
  }
  return dir;
}

const PROBE = `#!/usr/bin/env bash
set -euo pipefail
source "\${MCP_SDK}/tool-sdk.sh"
name="$(mcp_args_get '.name')"
# With a fallback that can only fail, an answer proves the warm service gave it. The
# private _mcp_jq is a stub that loads the SDK's core (D297).
served="$(MCPBASH_JSON_TOOL_BIN=false _mcp_jq -rn '"served"')"
direct="$(printf '{"n":[1,2,3]}' | "\${MCPBASH_JSON_TOOL_BIN}" -c '.n | add')"
mcp_result_success "$(mcp_json_obj name "\${name}" served "\${served}" direct "\${direct}" \\
  service "\${MCPBASH_JQ_SERVICE:+set}" tool "\${MCPBASH_JSON_TOOL}")"
`;

function project(root: string): string {
  mkdirSync(join(root, 'server.d'), { recursive: true });
  writeFileSync(join(root, 'server.d', 'server.meta.json'), '{"name":"builtin-jq"}');
  const tool = join(root, 'tools', 'probe');
  mkdirSync(tool, { recursive: true });
  writeFileSync(join(tool, 'tool.sh'), PROBE);
  chmodSync(join(tool, 'tool.sh'), 0o755);
  writeFileSync(join(tool, 'tool.meta.json'), '{"name":"probe","inputSchema":{"type":"object"}}');
  return root;
}

/** A fresh project (with the probe tool) plus tools/<name>/ running `script`. */
function projectWithTool(name: string, script: string): string {
  const root = project(scratchDir('mcpbash-builtin-jq-'));
  const tool = join(root, 'tools', name);
  mkdirSync(tool);
  writeFileSync(join(tool, 'tool.sh'), script, { mode: 0o755 });
  writeFileSync(join(tool, 'tool.meta.json'), JSON.stringify({ name }));
  return root;
}

t.test('without jq or gojq, SDK tools are served by the warm built-in jq', async (t) => {
  const server = await startInitialized({
    projectRoot: project(scratchDir('mcpbash-builtin-jq-')),
    env: toolEnv({ PATH: pathWithoutJq() }),
  });
  t.teardown(() => server.close());
  for (const name of ['first', 'second']) {
    const response = await server.request('tools/call', { name: 'probe', arguments: { name } });
    t.same(
      (response.result as { structuredContent?: unknown }).structuredContent,
      { success: true, result: { name, served: 'served', direct: '6', service: 'set', tool: 'jq' } },
      `call ${name}: SDK, fallback-free service call and MCPBASH_JSON_TOOL_BIN all answer`,
    );
  }
});

t.test('a JSON check that fails on text does not change what the next SDK call reads', async (t) => {
  // A tool that validates a reply it got, then reads its argument (an author's first tool).
  const root = projectWithTool(
    'checks',
    `#!/usr/bin/env bash
set -euo pipefail
source "\${MCP_SDK}/tool-sdk.sh"
reply='{"ok":1}
Internal Server Error
{"leaked":true}'
if mcp_is_valid_json "\${reply}"; then valid=yes; else valid=no; fi
mcp_result_success "$(mcp_json_obj valid "\${valid}" name "$(mcp_args_get '.name')")"
`,
  );
  const server = await startInitialized({ projectRoot: root, env: toolEnv({ PATH: pathWithoutJq() }) });
  t.teardown(() => server.close());
  const response = await server.request('tools/call', { name: 'checks', arguments: { name: 'Ada' } });
  t.same(
    (response.result as { structuredContent?: unknown }).structuredContent,
    { success: true, result: { valid: 'no', name: 'Ada' } },
    'the argument, not what the failed check left unread',
  );
});

t.test('with jq or gojq installed, tools get it and no warm service', async (t) => {
  const root = projectWithTool(
    'env-probe',
    '#!/bin/sh\nprintf "%s|%s" "${MCPBASH_JQ_SERVICE:-unset}" "$MCPBASH_JSON_TOOL_BIN"\n',
  );
  const bin = scratchDir('mcpbash-fakejq-');
  writeFileSync(join(bin, 'gojq'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'gojq'), 0o755);
  const server = await startInitialized({ projectRoot: root, env: toolEnv({ PATH: `${bin}:${pathWithoutJq()}` }) });
  t.teardown(() => server.close());
  const response = await server.request('tools/call', { name: 'env-probe' });
  t.match(response.result, { content: [{ text: `unset|${join(bin, 'gojq')}` }] });
});

t.test('auto passes over a jq 1.6 for the warm built-in jq; MCPBASH_JSON_TOOL=jq insists on it (D299)', async (t) => {
  const root = projectWithTool(
    'env-probe',
    '#!/bin/sh\nprintf "%s|%s" "${MCPBASH_JQ_SERVICE:+service}" "$MCPBASH_JSON_TOOL_BIN"\n',
  );
  const jqOf = (version: string) => {
    const bin = scratchDir('mcpbash-fakejq-');
    writeFileSync(join(bin, 'jq'), `#!/bin/sh\necho jq-${version}\n`, { mode: 0o755 });
    return bin;
  };
  const cases = [
    ['1.6', 'auto', /^service\|.*\/bin\/jq$/],
    ['1.5', 'auto', /^service\|/],
    ['1.6', 'jq', /^\|.*mcpbash-fakejq-[^/]+\/jq$/],
    ['1.7.1', 'auto', /^\|.*mcpbash-fakejq-[^/]+\/jq$/],
    ['1.8.1', 'auto', /^\|.*mcpbash-fakejq-[^/]+\/jq$/],
  ] as const;
  for (const [version, tool, expected] of cases) {
    const server = await startInitialized({
      projectRoot: root,
      env: toolEnv({ PATH: `${jqOf(version)}:${pathWithoutJq()}`, MCPBASH_JSON_TOOL: tool }),
    });
    const response = await server.request('tools/call', { name: 'env-probe' });
    await server.close();
    const text = (response.result as { content?: { text?: string }[] }).content?.[0]?.text ?? '';
    t.match(text, expected, `jq-${version}, MCPBASH_JSON_TOOL=${tool}: ${text}`);
  }
});
