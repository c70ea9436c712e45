import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

/** The path of a fixture project under test/fixtures/projects (read-only use). */
export function fixtureProject(name: string): string {
  return join(repoRoot, 'test', 'fixtures', 'projects', name);
}

/** A private copy of a fixture project that a test may change. */
export function copyFixtureProject(name: string): string {
  const target = join(mkdtempSync(join(tmpdir(), `mcpbash-${name}-`)), name);
  cpSync(fixtureProject(name), target, { recursive: true });
  return target;
}
