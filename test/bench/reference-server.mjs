#!/usr/bin/env node
// The yardstick for `npm run bench`: the MCP server a developer would write by hand with the
// official TypeScript SDK for the same project. It serves the generated bench project the
// plain way (tools/<name>/tool.sh with tool.meta.json, file resources, {{var}} prompts),
// starts each tool as `bash tool.sh` with the variables the Bash SDK needs, and keeps no
// caches beyond what such a server naturally holds in memory.
//
// Usage: node test/bench/reference-server.mjs <project-dir>   (stdio; MCP_SDK must be set)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const project = process.argv[2];
const PAGE_SIZE = 200;

/** Every `tools/<name>/tool.meta.json`, parsed, with its script. */
function readTools() {
  const dir = join(project, 'tools');
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    try {
      const meta = JSON.parse(readFileSync(join(dir, entry.name, 'tool.meta.json'), 'utf8'));
      found.push({ ...meta, script: join(dir, entry.name, 'tool.sh') });
    } catch {
      // a folder without metadata is not a tool
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** Every `<stem>.meta.json` in a flat folder, parsed, with its sibling `<stem>.<ext>` file. */
function readSiblingMetas(dir, ext) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.meta.json'))
    .sort()
    .map((name) => {
      const stem = name.slice(0, -'.meta.json'.length);
      return { ...JSON.parse(readFileSync(join(dir, name), 'utf8')), file: join(dir, `${stem}.${ext}`) };
    });
}

let tools;
const loadTools = () => {
  tools ??= readTools();
  return tools;
};
let resources;
const loadResources = () => {
  resources ??= readSiblingMetas(join(project, 'resources'), 'txt');
  return resources;
};
let prompts;
const loadPrompts = () => {
  prompts ??= readSiblingMetas(join(project, 'prompts'), 'txt');
  return prompts;
};

function page(items, cursor) {
  const offset = cursor ? Number(cursor) : 0;
  const slice = items.slice(offset, offset + PAGE_SIZE);
  const next = offset + PAGE_SIZE < items.length ? String(offset + PAGE_SIZE) : undefined;
  return { slice, next };
}

/** Runs a tool script the way mcp-bash hands one its arguments, and collects its output. */
function runTool(tool, args) {
  return new Promise((resolve) => {
    const child = spawn('bash', [tool.script], {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: process.env.TMPDIR ?? '/tmp',
        LANG: process.env.LANG ?? 'C',
        MCP_SDK: process.env.MCP_SDK,
        MCPBASH_MODE: 'full',
        MCPBASH_JSON_TOOL: process.env.MCPBASH_JSON_TOOL ?? 'gojq',
        MCPBASH_JSON_TOOL_BIN: process.env.MCPBASH_JSON_TOOL_BIN ?? '',
        MCPBASH_PROJECT_ROOT: project,
        MCP_TOOL_NAME: tool.name,
        MCP_TOOL_ARGS_JSON: JSON.stringify(args ?? {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

function toolResult({ code, stdout, stderr }) {
  if (code !== 0) return { content: [{ type: 'text', text: stderr.trim() || stdout || 'Tool failed' }], isError: true };
  try {
    const parsed = JSON.parse(stdout);
    if (parsed && Array.isArray(parsed.content) && 'isError' in parsed) return parsed;
    return { content: [{ type: 'text', text: stdout }], structuredContent: parsed };
  } catch {
    return { content: [{ type: 'text', text: stdout }] };
  }
}

const server = new Server(
  { name: 'reference', version: '1.0.0' },
  { capabilities: { tools: {}, resources: {}, prompts: {} } },
);

server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  const { slice, next } = page(loadTools(), request.params?.cursor);
  return {
    tools: slice.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    nextCursor: next,
  };
});

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = loadTools().find((candidate) => candidate.name === request.params.name);
  if (!tool) return { content: [{ type: 'text', text: `Tool '${request.params.name}' not found` }], isError: true };
  return toolResult(await runTool(tool, request.params.arguments));
});

server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
  const { slice, next } = page(loadResources(), request.params?.cursor);
  return { resources: slice.map(({ name, uri, mimeType }) => ({ name, uri, mimeType })), nextCursor: next };
});

server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  const resource = loadResources().find((candidate) => candidate.uri === request.params.uri);
  if (!resource) throw new Error(`Resource not found: ${request.params.uri}`);
  const text = await readFile(fileURLToPath(resource.uri), 'utf8');
  return { contents: [{ uri: resource.uri, mimeType: resource.mimeType ?? 'text/plain', text }] };
});

server.setRequestHandler(ListPromptsRequestSchema, async () => ({
  prompts: loadPrompts().map(({ name, description }) => ({ name, description })),
}));

server.setRequestHandler(GetPromptRequestSchema, async (request) => {
  const prompt = loadPrompts().find((candidate) => candidate.name === request.params.name);
  if (!prompt) throw new Error(`Prompt not found: ${request.params.name}`);
  const values = request.params.arguments ?? {};
  const template = await readFile(prompt.file, 'utf8');
  const text = template.replace(/\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g, (match, key) => values[key] ?? match);
  return { messages: [{ role: 'user', content: { type: 'text', text } }] };
});

await server.connect(new StdioServerTransport());
