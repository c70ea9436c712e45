import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RegistryConfig } from '../../config/slices.js';
import { canonicalJson, sha256Hex } from '../../json/canonical-json.js';
import type { ProcessRegistry } from '../../process/process-runner.js';
import type { LogSink } from '../../spec/logging-levels.js';
import type { ProjectLayout } from '../project-layout.js';
import { insecureFileReason } from '../secure-file.js';
import { MANUAL_KINDS, type ManualKind, type ManualNormalizers, type RawRegistrations } from './manual-kinds.js';
import { runRegisterHook } from './register-hook.js';
import { parseRegisterJson } from './register-json.js';
import type { ManualState } from './registry-store.js';

export interface ManualRegistrationOptions {
  readonly layout: Pick<ProjectLayout, 'root' | 'serverDir'>;
  /** register.sh runs only with hooks allowed, never in static mode; its result is reused for ttlMs.register. */
  readonly config: RegistryConfig;
  readonly hookDriver: string;
  readonly hookEnv: NodeJS.ProcessEnv;
  readonly scratchDir: string;
  /** Live register.sh runs are registered here (see RegisterHookOptions.processes). */
  readonly processes?: ProcessRegistry;
  readonly normalizers: ManualNormalizers;
  readonly log: LogSink;
}

type Loaded = {
  readonly signature: string;
  readonly at: number;
  readonly states: ReadonlyMap<ManualKind, ManualState<unknown>>;
};

function fileSignature(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return `${path}:${stat.size}:${stat.mtimeMs}:${stat.mode}`;
  } catch {
    return undefined;
  }
}

/** `server.d/register.json` and `server.d/register.sh`: a registry that may list a kind watches both. */
export function registrationFiles(layout: { readonly serverDir: string }): [json: string, sh: string] {
  return [join(layout.serverDir, 'register.json'), join(layout.serverDir, 'register.sh')];
}

/** Nothing registered: the kind is discovered. */
const AUTO: ManualState<unknown> = { mode: 'auto', key: 'auto' };

function allKinds(state: ManualState<unknown>): Map<ManualKind, ManualState<unknown>> {
  return new Map(MANUAL_KINDS.map((kind) => [kind, state]));
}

/**
 * `server.d/register.json` (data only, preferred) and `server.d/register.sh` (code, opt-in)
 * for every kind. register.json, when present, is the only source, and an invalid one
 * fails every kind loudly - never falling back to register.sh or discovery. A bad entry
 * within a valid file costs only that entry (a warning names it).
 */
export class ManualRegistrations {
  private loaded: Loaded | undefined;
  private loading: Promise<Loaded> | undefined;
  private hookNoticeGiven = false;

  constructor(private readonly options: ManualRegistrationOptions) {
    [this.registerJsonPath, this.registerShPath] = registrationFiles(options.layout);
  }

  private readonly registerJsonPath: string;
  private readonly registerShPath: string;

  async state(kind: ManualKind): Promise<ManualState<unknown>> {
    const loaded = await this.load();
    return loaded.states.get(kind) ?? AUTO;
  }

  private load(): Promise<Loaded> {
    this.loading ??= this.reload().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async reload(): Promise<Loaded> {
    const jsonSignature = fileSignature(this.registerJsonPath);
    const shSignature = jsonSignature ? undefined : fileSignature(this.registerShPath);
    const signature = jsonSignature ?? shSignature ?? 'none';
    const previous = this.loaded;
    const fresh =
      previous &&
      previous.signature === signature &&
      (jsonSignature !== undefined ||
        shSignature === undefined ||
        Date.now() - previous.at < this.options.config.ttlMs.register);
    if (fresh) return previous;
    let states: Map<ManualKind, ManualState<unknown>>;
    if (jsonSignature) states = this.fromRegisterJson();
    else if (shSignature) states = await this.fromRegisterSh();
    else states = allKinds(AUTO);
    this.loaded = { signature, at: Date.now(), states };
    return this.loaded;
  }

  private failAll(source: string, reason: string): Map<ManualKind, ManualState<unknown>> {
    const message = `server.d/${source} is invalid: ${reason}`;
    this.options.log.warning('mcp.registry', message);
    return allKinds({ mode: 'error', key: sha256Hex(message), message });
  }

  private fromRegisterJson(): Map<ManualKind, ManualState<unknown>> {
    const path = this.registerJsonPath;
    const insecure = insecureFileReason(path, this.trustedParents());
    if (insecure) return this.failAll('register.json', `it is not trusted: ${insecure}`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      return this.failAll('register.json', (error as Error).message);
    }
    const parsed = parseRegisterJson(bytes, this.options.config.maxManualBytes);
    if (!parsed.ok) return this.failAll('register.json', parsed.reason);
    return this.normalize('register.json', parsed.kinds);
  }

  private async fromRegisterSh(): Promise<Map<ManualKind, ManualState<unknown>>> {
    const off = this.options.config.staticMode
      ? 'server.d/register.sh is not run in static registry mode (MCPBASH_STATIC_REGISTRY)'
      : !this.options.config.allowHooks
        ? 'server.d/register.sh is present but project hooks are off; set MCPBASH_ALLOW_PROJECT_HOOKS=true to run it'
        : undefined;
    if (off) {
      this.noticeOnce(off);
      return allKinds(AUTO);
    }
    const insecure = insecureFileReason(this.registerShPath, this.trustedParents());
    if (insecure) return this.failAll('register.sh', `it is not trusted: ${insecure}`);
    if (!existsSync(this.options.hookDriver))
      return this.failAll('register.sh', `the hook driver ${this.options.hookDriver} is missing`);
    const outcome = await runRegisterHook({
      script: this.registerShPath,
      driver: this.options.hookDriver,
      projectRoot: this.options.layout.root,
      env: this.options.hookEnv,
      scratchDir: this.options.scratchDir,
      maxBytes: this.options.config.bufferMaxBytes,
      timeoutMs: 30_000,
      processes: this.options.processes,
      log: this.options.log,
    });
    if (!outcome.ok) return this.failAll('register.sh', outcome.reason);
    if (this.options.config.verbose && outcome.stdout.trim() !== '') {
      this.options.log.info('mcp.registry', `register.sh output: ${outcome.stdout.trim().slice(0, 2000)}`);
    }
    return this.normalize('register.sh', outcome.kinds, outcome.skipped);
  }

  /**
   * Each present kind is normalised on its own. A bad entry costs only that entry: it is
   * skipped with a warning naming it, and the kind keeps its other entries (a broken file,
   * by contrast, fails every kind: see failAll).
   */
  private normalize(
    source: string,
    kinds: RawRegistrations,
    unparsed: Partial<Record<ManualKind, string[]>> = {},
  ): Map<ManualKind, ManualState<unknown>> {
    const states = new Map<ManualKind, ManualState<unknown>>();
    for (const kind of MANUAL_KINDS) {
      const entries = kinds[kind];
      if (entries === undefined || entries === null) {
        states.set(kind, AUTO);
        continue;
      }
      const normalizer = this.options.normalizers[kind];
      const result = normalizer ? normalizer(entries) : { items: entries, errors: [], warnings: [] };
      const skipped = [...(unparsed[kind] ?? []), ...result.errors].map(
        (error) => `server.d/${source}: ${kind}: ${error}; the entry is skipped`,
      );
      states.set(kind, {
        mode: 'manual',
        key: sha256Hex(`${source}\0${canonicalJson(result.items)}`),
        items: result.items,
        warnings: [...skipped, ...result.warnings],
      });
    }
    return states;
  }

  /** Registration files are trusted only inside a server.d/ and project root safe from others. */
  private trustedParents(): string[] {
    return [this.options.layout.serverDir, this.options.layout.root];
  }

  private noticeOnce(message: string): void {
    if (this.hookNoticeGiven) return;
    this.hookNoticeGiven = true;
    this.options.log.info('mcp.registry', message);
  }
}
