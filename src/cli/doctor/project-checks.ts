import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../../build-info.js';
import type { Config } from '../../config/config.js';
import type { Env } from '../../config/env-values.js';
import { pathsConfig } from '../../config/slices.js';
import { findOnPath } from '../../process/json-tool.js';
import { openProject } from '../../project/project-context.js';
import { resolveProjectRoot } from '../../project/project-root.js';
import { discoverTools } from '../../project/tools/tool-discovery.js';
import { compareVersions, fullVersion } from '../../text/versions.js';
import { selfCommand } from '../self-command.js';
import type { DoctorReport } from './doctor-report.js';

/**
 * The version this binary must have (--min-version, or server.d/requirements.json's
 * framework.minVersion); `version` is the installed one (another after an upgrade).
 */
export function checkMinVersion(
  report: DoctorReport,
  minVersion: string | undefined,
  source: string,
  version: string = VERSION,
): void {
  if (minVersion === undefined) return;
  const order = compareVersions(version, minVersion);
  if (order === undefined)
    report.add('framework.min_version_invalid', 'error', `${source}: "${minVersion}" is not a version like 2.0.0`);
  else if (order < 0) {
    const message = `mcp-bash ${version} is older than ${minVersion}, required by ${source}`;
    // A bundle's mcp-bash.cjs, run by node, is not something doctor can upgrade (it refuses
    // with exit 3): the bundle is rebuilt instead.
    if (selfCommand().args.length > 0)
      report.add(
        'framework.version_too_old',
        'error',
        `${message}; this is a bundle's mcp-bash.cjs run by node: rebuild the bundle with mcp-bash ` +
          `${fullVersion(minVersion)} or newer (mcp-bash bundle)`,
      );
    else
      report.add('framework.version_too_old', 'error', message, {
        // `--version` takes a release version only (D121): `3.0` becomes `3.0.0`.
        suggestedCommand: `mcp-bash doctor --fix --version ${fullVersion(minVersion)}`,
      });
  }
}

interface Requirements {
  framework?: { minVersion?: unknown };
  dependencies?: unknown;
}

function dependencyNames(entry: unknown): string[] {
  const item = entry as { name?: unknown; or?: unknown } | null;
  if (typeof item?.name === 'string') return [item.name];
  if (Array.isArray(item?.or))
    return item.or
      .map((alternative) => (typeof alternative === 'string' ? alternative : (alternative as { name?: unknown })?.name))
      .filter((name): name is string => typeof name === 'string');
  return [];
}

/** server.d/requirements.json: `framework.minVersion` and `dependencies` ([{name}] or [{or:[...]}]) found on PATH. */
function checkRequirements(report: DoctorReport, serverDir: string, env: Env): void {
  const file = join(serverDir, 'requirements.json');
  if (!existsSync(file)) return;
  let requirements: Requirements;
  try {
    requirements = JSON.parse(readFileSync(file, 'utf8')) as Requirements;
  } catch (error) {
    report.add(
      'project.requirements_invalid',
      'warning',
      `server.d/requirements.json is not valid JSON (${(error as Error).message})`,
    );
    return;
  }
  const min = requirements.framework?.minVersion;
  if (typeof min === 'string') checkMinVersion(report, min, 'server.d/requirements.json');
  for (const entry of Array.isArray(requirements.dependencies) ? requirements.dependencies : []) {
    const names = dependencyNames(entry);
    if (names.length === 0 || names.some((name) => findOnPath(name, env.PATH))) continue;
    report.add(
      'deps.missing',
      'error',
      names.length === 1
        ? `missing dependency: ${names[0]} is not on PATH`
        : `missing dependency: none of ${names.join(', ')} is on PATH`,
    );
  }
}

/** The project here (MCPBASH_PROJECT_ROOT or found from the working directory), if any. */
export function checkProject(report: DoctorReport, config: Config, env: Env, cwd: string): void {
  const paths = pathsConfig(config.values);
  const located = resolveProjectRoot({ configured: paths.projectRoot, cwd });
  if (located.kind !== 'found') {
    report.sections.project = null;
    report.add(
      'project.none',
      'info',
      located.kind === 'invalid'
        ? `MCPBASH_PROJECT_ROOT=${located.path} is not a directory`
        : 'no project here (project checks skipped)',
    );
    return;
  }
  const project = openProject(located.root, paths.layout);
  const { layout } = project;
  const metaPath = join(layout.serverDir, 'server.meta.json');
  const serverMetaValid = existsSync(metaPath) ? project.identity.warnings.length === 0 : null;
  const toolsCount = discoverTools(layout.toolsDir).items.length;
  const registryExists = existsSync(layout.registryDir);
  report.sections.project = { root: layout.root, serverMetaValid, toolsCount, registryExists };
  if (serverMetaValid === false)
    report.add('project.server_meta_invalid', 'warning', `${metaPath} is not a valid JSON object`, {
      suggestedCommand: 'mcp-bash validate',
    });
  report.add(
    'project.found',
    'info',
    `project ${layout.root}: ${toolsCount} tool(s)` +
      `${registryExists ? '' : ', no .registry/ yet (created on first use)'}`,
  );
  checkRequirements(report, layout.serverDir, env);
}
