import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FrameworkHome } from '../../assets/framework-home.js';
import type { Config } from '../../config/config.js';
import { readMetadata } from '../../project/discovery-files.js';
import type { ProjectContext } from '../../project/project-context.js';
import type { RawRegistrations } from '../../project/registry/manual-kinds.js';
import { SchemaValidator } from '../../validation/json-schema.js';
import { checkPrompts } from './check-prompts.js';
import { checkRegistrations, readRegisterJsonFile } from './check-registrations.js';
import { checkResources } from './check-resources.js';
import { checkServerMeta } from './check-server.js';
import { checkTools } from './check-tools.js';
import { checkUi } from './check-ui.js';
import { ValidationReport } from './validation-report.js';

/** The server identity in force and where each value came from (`--explain-defaults`). */
export interface ServerDefaults {
  readonly name: string;
  readonly title: string;
  readonly version: string;
  readonly sources: { readonly name: string; readonly title: string; readonly version: string };
}

/**
 * Where the name came from. When server.meta.json has an error (1.x's rule: it must name the
 * server), the fallback the server would use is named as such, not as a default.
 */
function nameSource(path: string, given: boolean, root: string, report: ValidationReport): string {
  if (given) return 'server.meta.json';
  const directory = `the directory name (${basename(root)})`;
  if (!existsSync(path)) return `${directory}: there is no server.meta.json`;
  if (report.hasError(path))
    return `not set: server.meta.json has an error (see above), so the server falls back to ${directory}`;
  return `${directory}: server.meta.json gives no usable "name" (see above)`;
}

/** Mirrors loadServerIdentity's precedence, naming the source of each value (after `report`'s checks). */
export function serverDefaults(project: ProjectContext, report: ValidationReport): ServerDefaults {
  const path = join(project.layout.serverDir, 'server.meta.json');
  const read = readMetadata(path);
  const meta = typeof read === 'string' ? {} : read;
  const given = (key: string) => typeof meta[key] === 'string' && (meta[key] as string).trim() !== '';
  const { info } = project.identity;
  const root = project.layout.root;
  let versionSource = 'the default 0.0.0';
  if (given('version')) versionSource = 'server.meta.json';
  else if (existsSync(join(root, 'VERSION'))) versionSource = 'the VERSION file';
  else if (info.version !== '0.0.0') versionSource = 'package.json';
  return {
    name: info.name,
    title: info.title ?? info.name,
    version: info.version,
    sources: {
      name: nameSource(path, given('name'), root, report),
      title: given('title') ? 'server.meta.json' : 'the name, title-cased',
      version: versionSource,
    },
  };
}

/** What `validateProject` checks, and whether it may repair. */
export interface ValidateOptions {
  readonly project: ProjectContext;
  readonly home: FrameworkHome;
  readonly config: Config;
  readonly fix: boolean;
}

/** Runs every check of `mcp-bash validate` on a project. */
export function validateProject(options: ValidateOptions): ValidationReport {
  const { project } = options;
  const report = new ValidationReport(project.layout.root);
  const ctx = { report, validator: new SchemaValidator(), fix: options.fix };
  // register.json is read once: a kind it lists replaces discovery, which changes what the
  // tools and prompts checks expect, and its own checks come last.
  const registerJson = readRegisterJsonFile(project.layout, options.config);
  const registered: RawRegistrations = registerJson?.parsed.ok ? registerJson.parsed.kinds : {};
  checkServerMeta(ctx, project.layout);
  checkTools(ctx, project.layout, project.identity.info.name, registered.tools);
  checkPrompts(ctx, project.layout, registered.prompts);
  checkResources(ctx, project.layout, options.home, options.config);
  checkUi(ctx, project.layout, project.identity.info.name, options.config);
  checkRegistrations(ctx, project.layout, options.config, registerJson);
  return report;
}
