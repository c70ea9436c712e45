// The generated project both servers serve in the benchmark, and a PATH without jq/gojq.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HELLO_TOOL = `#!/usr/bin/env bash
set -euo pipefail
source "\${MCP_SDK}/tool-sdk.sh"
name="$(mcp_args_get '.name // "World"')"
mcp_result_success "$(mcp_json_obj message "Hello, \${name}!")"
`;

// Times one SDK helper that needs the JSON tool inside the tool (no server, no spawn in the
// way): microseconds per \`x="$(mcp_args_get '.list | length')"\`, then per \`x="$(printf x)"\` (the
// subshell alone), each the median of 5 runs of 20 calls.
const JSON_HELPER_TOOL = `#!/usr/bin/env bash
set -euo pipefail
source "\${MCP_SDK}/tool-sdk.sh"
mcp_args_get '.list | length' >/dev/null
per_call() {
  local runs=() r i s e
  for ((r = 0; r < 5; r++)); do
    s=$EPOCHREALTIME
    for ((i = 0; i < 20; i++)); do x="$("$@")"; done
    e=$EPOCHREALTIME
    runs+=("$(( (\${e/./} - \${s/./}) / 20 ))")
  done
  printf '%s\\n' "\${runs[@]}" | sort -n | sed -n 3p
}
printf '%s %s' "$(per_call mcp_args_get '.list | length')" "$(per_call printf x)"
`;

const writeJson = (path, value) => writeFileSync(path, JSON.stringify(value));

function writeTool(toolsDir, name, script, meta) {
  const dir = join(toolsDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tool.sh'), script);
  chmodSync(join(dir, 'tool.sh'), 0o755);
  writeJson(join(dir, 'tool.meta.json'), { name, ...meta });
}

/**
 * A project of `count` `printf ok` tools (`tool-0000`...), two SDK tools (`hello`, `json-helper`), one small
 * file resource (`greeting`) and one prompt (`greet`), in a fresh temp dir.
 */
export function makeProject(count) {
  const project = join(mkdtempSync(join(tmpdir(), 'mcpbash-bench-')), 'project');
  mkdirSync(join(project, 'server.d'), { recursive: true });
  writeJson(join(project, 'server.d', 'server.meta.json'), { name: 'bench' });
  const tools = join(project, 'tools');
  const width = Math.max(4, String(count - 1).length);
  for (let i = 0; i < count; i += 1) {
    writeTool(tools, `tool-${String(i).padStart(width, '0')}`, '#!/usr/bin/env bash\nprintf ok\n', {
      description: `Benchmark tool ${i}`,
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
    });
  }
  writeTool(tools, 'hello', HELLO_TOOL, {
    description: 'Greets someone through the Bash SDK',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
  });
  writeTool(tools, 'json-helper', JSON_HELPER_TOOL, {
    description: 'Times an SDK helper that runs the JSON tool',
    inputSchema: { type: 'object', properties: { list: { type: 'array' } } },
  });
  const resources = join(project, 'resources');
  mkdirSync(resources);
  writeFileSync(join(resources, 'greeting.txt'), 'Hello from a small text resource.\n');
  writeJson(join(resources, 'greeting.meta.json'), {
    name: 'greeting',
    uri: `file://${join(resources, 'greeting.txt')}`,
    mimeType: 'text/plain',
  });
  const prompts = join(project, 'prompts');
  mkdirSync(prompts);
  writeFileSync(join(prompts, 'greet.txt'), 'Write a warm greeting for {{name}} about {{topic}}.');
  writeJson(join(prompts, 'greet.meta.json'), {
    name: 'greet',
    description: 'A greeting prompt',
    arguments: { type: 'object', properties: { name: { type: 'string' }, topic: { type: 'string' } } },
  });
  return project;
}

/** A directory of links to every program on PATH except jq and gojq: "a host without jq". */
export function pathWithoutJq(pathVariable) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpbash-bench-nojq-'));
  const linked = new Set(['jq', 'gojq']);
  for (const source of pathVariable.split(':')) {
    if (!source || !existsSync(source)) continue;
    for (const name of readdirSync(source)) {
      if (linked.has(name)) continue;
      linked.add(name);
      symlinkSync(join(source, name), join(dir, name));
    }
  }
  return dir;
}
