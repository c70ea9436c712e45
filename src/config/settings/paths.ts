import { isAbsolute } from 'node:path';
import type { Parsed } from '../setting.js';
import { bool, custom, inSection, text } from '../setting-kinds.js';

// State belongs in a temp dir, never in the project, so a relative value is not resolved
// against the project root as the other paths are: it is ignored, and said so.
function absoluteOnly(raw: string): Parsed<string | undefined> {
  return isAbsolute(raw)
    ? { value: raw }
    : { value: undefined, problem: `${JSON.stringify(raw)} is not an absolute path; ignored` };
}

/** Where the project, the framework files and the server's state are. */
export const pathSettings = inSection('Project and paths', {
  MCPBASH_PROJECT_ROOT: text({
    usedBy: ['project'],
    defaultDoc:
      'the nearest directory above the working directory with `server.d/server.meta.json`; else getting-started mode',
    doc: 'the project to serve',
  }),
  MCPBASH_TOOLS_DIR: text({
    usedBy: ['project'],
    defaultDoc: '`<root>/tools`',
    doc: 'where tools are discovered',
  }),
  MCPBASH_RESOURCES_DIR: text({
    usedBy: ['project'],
    defaultDoc: '`<root>/resources`',
    doc: 'resources and resource templates',
  }),
  MCPBASH_PROMPTS_DIR: text({ usedBy: ['project'], defaultDoc: '`<root>/prompts`', doc: 'prompts' }),
  MCPBASH_SERVER_DIR: text({
    usedBy: ['project'],
    defaultDoc: '`<root>/server.d`',
    doc: '`server.meta.json`, `register.json`, hooks',
  }),
  MCPBASH_PROVIDERS_DIR: text({
    usedBy: ['project'],
    defaultDoc: '`<root>/providers`',
    doc: 'project resource providers (`<name>.sh`)',
  }),
  MCPBASH_COMPLETIONS_DIR: text({
    usedBy: ['project'],
    defaultDoc: '`<root>/completions`',
    doc: 'where `scaffold completion` writes',
  }),
  MCPBASH_UI_DIR: text({
    usedBy: ['project'],
    defaultDoc: '`<root>/ui`',
    doc: 'the standalone MCP Apps views (`ui/<name>/`, [UI.md](UI.md))',
  }),
  MCPBASH_REGISTRY_DIR: text({
    usedBy: ['project'],
    defaultDoc: '`<root>/.registry`',
    doc: 'registry cache files',
  }),
  MCPBASH_HOME: text({
    usedBy: ['project'],
    defaultDoc: 'the files embedded in the binary, extracted on first run',
    doc:
      'a framework directory to use instead (development: a checkout of this repository); a 1.x install is ' +
      'ignored (D39)',
  }),
  MCPBASH_TMP_ROOT: custom<string | undefined>({
    usedBy: ['project'],
    default: undefined,
    defaultDoc: '`TMPDIR`, else the system temp dir',
    doc: 'where state directories are made; an absolute path (a relative one is ignored, with a warning)',
    parse: absoluteOnly,
  }),
  MCPBASH_STATE_DIR: custom<string | undefined>({
    usedBy: ['project'],
    default: undefined,
    defaultDoc: '`<tmp root>/mcpbash.state.<ppid>.<pid>.<seed>`',
    doc:
      "the server's private state directory (per-call tool directories live in it); removed at exit when " +
      'the server created it, left as it is when it already existed (D264); an absolute path (a relative one ' +
      'is ignored, with a warning)',
    parse: absoluteOnly,
  }),
  MCPBASH_PRESERVE_STATE: bool({
    usedBy: ['project'],
    default: false,
    doc: "keep the state directory (and each call's files) after exit",
  }),
  MCPBASH_ROOTS: text({
    usedBy: ['project'],
    doc:
      'MCP roots used until the client gives its own: colon-separated paths, each must exist (else ' +
      '`config/roots.json`, else the project root)',
  }),
  MCP_RESOURCES_ROOTS: text({
    usedBy: ['providers'],
    defaultDoc: '`resources/` plus the configured roots (D54)',
    doc: 'directories the file provider may serve, colon-separated',
  }),
});
