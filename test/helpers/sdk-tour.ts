import { join } from 'node:path';
import { repoRoot } from './paths.js';

/** The project whose one tool calls every tool-SDK function (test/fixtures/sdk-tour). */
export const tourProject = join(repoRoot, 'test', 'fixtures', 'sdk-tour');

/**
 * What the tour reports, field by field, when called with name Ada, count 4, path `root`,
 * `_meta.trace` abc and `root` as the one root: the same whether it runs directly or
 * through tools/call. (truncate, download, resources, result_error and raw are JSON the
 * tests parse.)
 */
export function expectedTourSummary(root: string): Record<string, string> {
  return {
    name: 'Ada',
    count: '4',
    verbose: 'false',
    path: root,
    meta: 'abc',
    cancelled: 'false',
    retry: 'rc=0 attempts=2',
    passthrough: 'passthrough-out',
    escape: '"say \\"hi\\""',
    array: '["a","b"]',
    roots: `1:${root}`,
    contains: 'yes',
    normalize: '/a/c',
    collapse: '/x/y',
    loaded: 'yes',
    valid_json: 'yes',
    bytes: '2',
    cli_error: 'cli said no',
    config: 'eu',
    emit_text: 'text',
    emit_json: '{"k":1}',
    elicit: '{"action":"skipped","content":null}',
  };
}
