import { chmodSync, cpSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Test } from 'tap';
import { repoRoot } from './paths.js';
import { scratchDir } from './scratch.js';

/** Where the fixture projects live in the repository (never served directly). */
export function fixtureSource(name: string): string {
  return join(repoRoot, 'test', 'fixtures', 'projects', name);
}

/** Removes group/other write bits: the server refuses to run group-writable project code. */
function tightenPermissions(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  chmodSync(path, stat.mode & ~0o022 & 0o7777);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) tightenPermissions(join(path, entry));
}

/**
 * A private copy of a fixture project: servers write `.registry/` into their project, and
 * tests may change files. Permissions are tightened whatever the checkout's umask was.
 */
export function fixtureProject(name: string): string {
  return copyProject(fixtureSource(name), name);
}

/**
 * A private copy of any project directory (an example, a fixture), permissions tightened.
 * A `.registry/` cache in the source (serving an example in place writes one, as the
 * README's first command does) is left behind: each test starts from a fresh checkout's state.
 */
export function copyProject(source: string, name: string): string {
  const target = join(scratchDir(`mcpbash-${name}-`), name);
  cpSync(source, target, { recursive: true, filter: (path) => basename(path) !== '.registry' });
  tightenPermissions(target);
  return target;
}

/** A tool of {@link projectWithTools}: its Bash body (after the shebang), and metadata beyond its name. */
export type ToolSpec = string | { readonly body: string; readonly meta?: Record<string, unknown> };

/** A project named `name` in `t`'s test directory, with these tools (`tools/NAME/tool.sh`). */
export function projectWithTools(t: Test, name: string, tools: Record<string, ToolSpec>): string {
  const root = t.testdir({ 'server.d': { 'server.meta.json': JSON.stringify({ name }) } });
  for (const [tool, spec] of Object.entries(tools)) {
    const { body, meta } = typeof spec === 'string' ? { body: spec, meta: {} } : spec;
    const dir = join(root, 'tools', tool);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tool.sh'), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(dir, 'tool.sh'), 0o755);
    writeFileSync(join(dir, 'tool.meta.json'), JSON.stringify({ name: tool, ...meta }));
  }
  return root;
}
