import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '../../json/canonical-json.js';
import type { ProcessRegistry } from '../../process/process-runner.js';
import type { LogSink } from '../../spec/logging-levels.js';
import { insecureFileReason } from '../secure-file.js';
import { MANUAL_KINDS, type ManualKind, type ManualNormalizers, type RawRegistrations } from './manual-kinds.js';
import { runRegisterHook } from './register-hook.js';
import { parseRegisterJson } from './register-json.js';
import type { ManualState } from './registry-store.js';

export interface ManualRegistrationOptions {
  readonly serverDir: string;
  readonly projectRoot: string;
  /** MCPBASH_ALLOW_PROJECT_HOOKS: register.sh runs only when this is on. */
  readonly allowHooks: boolean;
  /** Static registry mode never runs register.sh. */
  readonly staticMode: boolean;
  /** MCPBASH_REGISTER_TTL: how long a register.sh result is reused. */
  readonly ttlMs: number;
  /** MCPBASH_MAX_MANUAL_REGISTRY_BYTES */
  readonly maxBytes: number;
  /** MCPBASH_MANUAL_BUFFER_MAX_BYTES */
  readonly bufferMaxBytes: number;
  readonly hookDriver: string;
  readonly hookEnv: NodeJS.ProcessEnv;
  readonly scratchDir: string;
  /** Live register.sh runs are registered here (see RegisterHookOptions.processes). */
  readonly processes?: ProcessRegistry;
  readonly normalizers: ManualNormalizers;
  readonly log: LogSink;
  /** MCPBASH_LOG_VERBOSE: log register.sh output (at info, so the default level shows it). */
  readonly verbose: boolean;
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

function allKinds(state: (kind: ManualKind) => ManualState<unknown>): Map<ManualKind, ManualState<unknown>> {
  return new Map(MANUAL_KINDS.map((kind) => [kind, state(kind)]));
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

  constructor(private readonly options: ManualRegistrationOptions) {}

  get registerJsonPath(): string {
    return join(this.options.serverDir, 'register.json');
  }

  get registerShPath(): string {
    return join(this.options.serverDir, 'register.sh');
  }

  async state(kind: ManualKind): Promise<ManualState<unknown>> {
    const loaded = await this.load();
    return loaded.states.get(kind) ?? { mode: 'auto', key: 'auto' };
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
      (jsonSignature !== undefined || shSignature === undefined || Date.now() - previous.at < this.options.ttlMs);
    if (fresh) return previous;
    let states: Map<ManualKind, ManualState<unknown>>;
    if (jsonSignature) states = this.fromRegisterJson();
    else if (shSignature) states = await this.fromRegisterSh();
    else states = allKinds(() => ({ mode: 'auto', key: 'auto' }));
    this.loaded = { signature, at: Date.now(), states };
    return this.loaded;
  }

  private failAll(source: string, reason: string): Map<ManualKind, ManualState<unknown>> {
    const message = `server.d/${source} is invalid: ${reason}`;
    this.options.log.warning('mcp.registry', message);
    return allKinds(() => ({ mode: 'error', key: sha256Hex(message), message }));
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
    const parsed = parseRegisterJson(bytes, this.options.maxBytes);
    if (!parsed.ok) return this.failAll('register.json', parsed.reason);
    return this.normalize('register.json', parsed.kinds);
  }

  private async fromRegisterSh(): Promise<Map<ManualKind, ManualState<unknown>>> {
    const auto = () => allKinds(() => ({ mode: 'auto', key: 'auto' }));
    if (this.options.staticMode) {
      this.noticeOnce('server.d/register.sh is not run in static registry mode (MCPBASH_STATIC_REGISTRY)');
      return auto();
    }
    if (!this.options.allowHooks) {
      this.noticeOnce(
        'server.d/register.sh is present but project hooks are off; set MCPBASH_ALLOW_PROJECT_HOOKS=true to run it',
      );
      return auto();
    }
    const insecure = insecureFileReason(this.registerShPath, this.trustedParents());
    if (insecure) return this.failAll('register.sh', `it is not trusted: ${insecure}`);
    if (!existsSync(this.options.hookDriver))
      return this.failAll('register.sh', `the hook driver ${this.options.hookDriver} is missing`);
    const outcome = await runRegisterHook({
      script: this.registerShPath,
      driver: this.options.hookDriver,
      projectRoot: this.options.projectRoot,
      env: this.options.hookEnv,
      scratchDir: this.options.scratchDir,
      maxBytes: this.options.bufferMaxBytes,
      timeoutMs: 30_000,
      processes: this.options.processes,
      log: this.options.log,
    });
    if (!outcome.ok) return this.failAll('register.sh', outcome.reason);
    if (this.options.verbose && outcome.stdout.trim() !== '') {
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
        states.set(kind, { mode: 'auto', key: 'auto' });
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
    return [this.options.serverDir, this.options.projectRoot];
  }

  private noticeOnce(message: string): void {
    if (this.hookNoticeGiven) return;
    this.hookNoticeGiven = true;
    this.options.log.info('mcp.registry', message);
  }
}
