import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { assetsParentDir } from '../../assets/data-dir.js';
import { type AssetBundle, MARKER_FILE } from '../../assets/extract-archive.js';
import type { FrameworkHome } from '../../assets/framework-home.js';
import { VERSION } from '../../build-info.js';
import type { Config } from '../../config/config.js';
import type { Env } from '../../config/env-values.js';
import { pathsConfig } from '../../config/slices.js';
import { findOnPath } from '../../process/json-tool.js';
import { shellQuote } from '../../process/shell-quote.js';
import { tempRoot } from '../../project/state-dir.js';
import { compareVersions } from '../../text/versions.js';
import { jsonToolInfo } from '../json-tool-info.js';
import { real, selfCommand, selfExecutable } from '../self-command.js';
import { checkAssetIntegrity, reextractAssets } from './asset-integrity.js';
import type { DoctorReport } from './doctor-report.js';
import { inspectShim, repairShim, shimPath } from './shim.js';

/** This binary: where it is, its version, and whether it runs natively or under node. */
export function checkBinary(report: DoctorReport): void {
  const self = selfCommand();
  const invocation = self.args.length > 0 ? 'node' : 'native';
  report.sections.binary = { path: selfExecutable(), version: VERSION, invocation, node: process.version };
  report.add(
    'binary.version',
    'info',
    `mcp-bash ${VERSION} (` +
      `${invocation === 'native' ? 'native binary' : `bundle run by node ${process.version}`}) at ` +
      `${selfExecutable()}`,
  );
}

function reportFallback(report: DoctorReport, home: FrameworkHome, managedRoot: string | null): void {
  const why = home.fallbackCause ?? `the data dir ${managedRoot} is not usable`;
  report.add(
    'framework.fallback',
    'warning',
    `${why}, so the framework files live in a private temp dir (${home.root}) and are extracted again after a ` +
      'reboot',
    { suggestedCommand: dataDirRepair(managedRoot) },
  );
}

/** What makes the data dir usable: a home, a file moved out of the way, or write permission. */
function dataDirRepair(managedRoot: string | null): string {
  if (managedRoot === null) return 'export HOME=/some/writable/dir';
  const path = shellQuote(managedRoot);
  if (existsSync(managedRoot) && !statSync(managedRoot).isDirectory())
    return `mv ${path} ${shellQuote(`${managedRoot}.old`)}   # a file is where the directory belongs`;
  return `mkdir -p ${path} && chmod u+w ${path}`;
}

/**
 * The extracted framework files, compared file by file with the archive inside this binary.
 * `home` is undefined when they could not be provided at all (the data dir and the temp
 * dir both refused them): doctor still reports, so the user learns why.
 */
export function checkFramework(report: DoctorReport, home: FrameworkHome | Error, bundle: AssetBundle, env: Env): void {
  const managedRoot = assetsParentDir(env) ?? null;
  if (home instanceof Error) {
    report.sections.framework = { path: null, exists: false, origin: null, version: VERSION };
    report.sections.assets = { checked: false, files: 0, missing: [], modified: [], intact: null };
    report.sections.install = {
      managedRoot,
      markerPath: null,
      markerPresent: false,
      managed: false,
      reason: 'the framework files could not be extracted',
    };
    report.add('framework.unavailable', 'error', `the framework files could not be provided: ${home.message}`, {
      suggestedCommand: dataDirRepair(managedRoot),
    });
    return;
  }
  const integrity = checkAssetIntegrity(home, bundle);
  const intact = integrity.checked && integrity.missing.length === 0 && integrity.modified.length === 0;
  const markerPath = home.origin === 'env' ? null : join(home.root, MARKER_FILE);
  report.sections.framework = {
    path: home.root,
    exists: existsSync(home.sdkDir),
    origin: home.origin,
    version: VERSION,
    sdk: home.sdkDir,
  };
  report.sections.assets = { ...integrity, intact: integrity.checked ? intact : null };
  report.sections.install = {
    managedRoot,
    markerPath,
    markerPresent: markerPath !== null && existsSync(markerPath),
    // The binary owns (extracts and repairs) its files in the data dir and the temp fallback.
    managed: home.origin !== 'env',
    reason:
      home.origin === 'env'
        ? 'MCPBASH_HOME points at a framework directory'
        : home.origin === 'fallback'
          ? 'extracted to a private temp dir (the data dir is not usable)'
          : 'extracted by this binary',
  };
  if (!integrity.checked) {
    report.add(
      'framework.development',
      'info',
      `MCPBASH_HOME=${home.root} is a source tree: its files are used as they are, not compared with the binary's`,
    );
    return;
  }
  if (home.origin === 'fallback') reportFallback(report, home, managedRoot);
  if (intact) {
    report.add('framework.intact', 'info', `framework files intact (${integrity.files} files in ${home.root})`);
    return;
  }
  const damage = [
    ...integrity.missing.map((path) => `${path} (missing)`),
    ...integrity.modified.map((path) => `${path} (modified)`),
  ];
  report.add(
    'framework.damaged',
    'error',
    `the framework files in ${home.root} differ from this binary's: ` +
      `${damage.slice(0, 5).join(', ')}${damage.length > 5 ? ` and ${damage.length - 5} more` : ''}`,
    {
      action: {
        id: 'framework.reextract',
        message: `extract the framework files again into ${home.root}`,
        command: null,
        apply: () => void reextractAssets(home, bundle),
      },
    },
  );
}

function bashVersion(): string | null {
  const run = spawnSync('bash', ['-c', 'printf %s "$BASH_VERSION"'], { encoding: 'utf8', timeout: 10_000 });
  return run.error || run.status !== 0 ? null : run.stdout.trim();
}

function writable(dir: string): boolean {
  try {
    rmSync(mkdtempSync(join(dir, 'mcpbash.doctor.')), { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

/** bash (tools need >= 3.2), the JSON tool tools get, and a writable temp root. */
export function checkRuntime(report: DoctorReport, config: Config, env: Env): void {
  const bash = bashVersion();
  const json = jsonToolInfo(config, env);
  const tmpRoot = tempRoot(pathsConfig(config.values));
  const tmpWritable = writable(tmpRoot);
  report.sections.runtime = {
    bashVersion: bash,
    jqPath: findOnPath('jq', env.PATH) ?? null,
    gojqPath: findOnPath('gojq', env.PATH) ?? null,
    jsonTool: json.name,
    jsonToolBuiltin: json.builtin,
    tmpRoot,
    tmpRootWritable: tmpWritable,
  };
  if (bash === null)
    report.add('runtime.bash_missing', 'error', 'bash is not on PATH: tools and hooks cannot run', {
      suggestedCommand: 'install bash 3.2 or later',
    });
  // BASH_VERSION reads like 5.2.15(1)-release: its numbers are the version.
  else if ((compareVersions(/^\d+(\.\d+){0,2}/.exec(bash)?.[0] ?? '', '3.2') ?? 0) < 0)
    report.add('runtime.bash_old', 'error', `bash ${bash} is older than 3.2`);
  else report.add('runtime.bash', 'info', `bash ${bash}`);
  report.add(
    'runtime.json_tool',
    'info',
    json.builtin
      ? 'no jq or gojq installed: tools use the built-in jq (mcp-bash jq)'
      : `tools use ${json.name} (${json.path})`,
  );
  if (!tmpWritable)
    report.add('runtime.tmp_root_not_writable', 'error', `the temp root ${tmpRoot} is not writable`, {
      suggestedCommand: 'export MCPBASH_TMP_ROOT=/some/writable/dir',
    });
}

/** `mcp-bash` on PATH and the ~/.local/bin link; a missing, broken or stale link is repaired by --fix. */
export function checkPathAndShim(report: DoctorReport, env: Env): void {
  const self = selfExecutable();
  const onPath = findOnPath('mcp-bash', env.PATH);
  const pathConfigured = onPath !== undefined && real(onPath) === real(self);
  const path = shimPath(env);
  // 1.x reported these under `framework`; the section exists when checkFramework ran first.
  report.sections.framework = {
    ...(report.sections.framework as object | undefined),
    pathConfigured,
    resolvedOnPath: onPath ?? null,
  };
  if (path === undefined) {
    reportNoShimHome(report, pathConfigured);
    return;
  }
  const shim = inspectShim(path, self);
  report.sections.shim = shim;
  if (shim.status === 'missing' && !pathConfigured) {
    report.add('shim.missing', 'warning', `mcp-bash is not on PATH and ${shim.path} does not exist`, {
      action: linkAction(shim, self),
    });
  } else if (shim.status === 'broken' || shim.status === 'wrong_target') {
    report.add(`shim.${shim.status}`, 'warning', `${shim.path} ${shim.detail}`, { action: linkAction(shim, self) });
  } else if (shim.status === 'not_symlink') {
    report.add('shim.not_symlink', 'warning', `${shim.path} is ${shim.detail}; doctor does not replace files`, {
      suggestedCommand: `mv ${shellQuote(shim.path)} ${shellQuote(`${shim.path}.old`)} && mcp-bash doctor --fix`,
    });
  }
  const binDir = dirname(shim.path);
  const binOnPath = (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && real(dir) === real(binDir));
  if (!pathConfigured && onPath !== undefined)
    report.add('path.other_binary', 'warning', `PATH finds another mcp-bash first: ${onPath}`, {
      suggestedCommand: `export PATH=${shellQuote(binDir)}:"$PATH"`,
    });
  else if (!pathConfigured && !binOnPath)
    report.add('path.not_configured', 'warning', `${binDir} is not on PATH`, {
      suggestedCommand: `export PATH=${shellQuote(binDir)}:"$PATH"   # add it to your shell profile`,
    });
  else if (pathConfigured) report.add('path.ok', 'info', `PATH finds this mcp-bash (${onPath})`);
}

function reportNoShimHome(report: DoctorReport, pathConfigured: boolean): void {
  const detail = 'no home directory (no absolute HOME, no home in the user database) and no XDG_BIN_HOME';
  report.sections.shim = { path: null, target: null, status: 'missing', detail };
  if (pathConfigured) report.add('path.ok', 'info', 'PATH finds this mcp-bash');
  else
    report.add('shim.no_home', 'warning', `mcp-bash is not on PATH, and there is nowhere to link it: ${detail}`, {
      suggestedCommand: 'export XDG_BIN_HOME=/some/dir/on/PATH && mcp-bash doctor --fix',
    });
}

function linkAction(shim: ReturnType<typeof inspectShim>, self: string) {
  return {
    id: 'shim.ensure', // 1.x's action id
    message: `link ${shim.path} to ${self}`,
    // The directory may not exist yet (a fresh ~/.local/bin): the command works as printed.
    command: `mkdir -p ${shellQuote(dirname(shim.path))} && ln -sf ${shellQuote(self)} ${shellQuote(shim.path)}`,
    apply: () => repairShim(shim, self),
  };
}

/** macOS marks downloaded files as quarantined; Gatekeeper then refuses to run the binary. */
export function checkQuarantine(report: DoctorReport): void {
  if (process.platform !== 'darwin') {
    report.sections.macOS = { applicable: false, quarantined: null };
    return;
  }
  const self = selfExecutable();
  const probe = spawnSync('xattr', ['-p', 'com.apple.quarantine', self], { encoding: 'utf8' });
  const quarantined = !probe.error && probe.status === 0;
  report.sections.macOS = { applicable: true, quarantined };
  if (!quarantined) return;
  report.add('macos.quarantined', 'warning', `${self} carries the com.apple.quarantine attribute`, {
    action: {
      id: 'macos.unquarantine',
      message: `remove the quarantine attribute from ${self}`,
      command: `xattr -d com.apple.quarantine ${shellQuote(self)}`,
      apply: () => {
        spawnSync('xattr', ['-d', 'com.apple.quarantine', self]);
      },
    },
  });
}

const MSYS_HINT =
  'Git Bash/MSYS: set MSYS2_ARG_CONV_EXCL="*" before commands that take paths (--roots, --project-root) so ' +
  'they are not rewritten';

/** Git Bash / MSYS on Windows rewrites path arguments; 1.x's hint for it. */
export function checkWindows(report: DoctorReport, env: Env): void {
  const msysDetected = env.MSYSTEM !== undefined && env.MSYSTEM !== '';
  report.sections.windows = { msysDetected, hint: msysDetected ? MSYS_HINT : null };
  if (msysDetected) report.add('windows.msys', 'info', MSYS_HINT);
}

/** Tools worth having while writing tools (listed, never required): shellcheck, npx (MCP Inspector). */
export function checkOptionalTools(report: DoctorReport, env: Env): void {
  const optional = { shellcheck: 'lints tool scripts', npx: 'runs the MCP Inspector (mcp-bash validate --inspector)' };
  const found: Record<string, string | null> = {};
  for (const [name, purpose] of Object.entries(optional)) {
    const path = findOnPath(name, env.PATH) ?? null;
    found[name] = path;
    report.add(
      `optional.${name}`,
      'info',
      path ? `${name} found: ${purpose}` : `${name} not found (optional): ${purpose}`,
    );
  }
  report.sections.optional = found;
}
