import { join } from 'node:path';
import { type FailureWording, failureMessage, type ProcessFailure, processFailure } from '../process/process-result.js';
import { ProjectError } from '../project/project-error.js';
import { readFileUri } from './file-provider.js';
import { resourceRoots } from './provider-environment.js';
import { providerFailure } from './provider-errors.js';
import { resolveProviderScript } from './provider-scripts.js';
import { runScript, type ScriptHost } from './script-run.js';

/** What running providers needs from the server; shared by every read. */
export interface ProviderHost extends ScriptHost {
  /** MCPBASH_MAX_RESOURCE_BYTES: a larger payload fails the read (never partial). */
  readonly maxResourceBytes: number;
  readonly maxStderrBytes: number;
  /** The session's configured MCP roots (paths; not the implicit project root), for MCP_RESOURCES_ROOTS. */
  readonly sessionRoots?: () => Promise<readonly string[]>;
}

export interface ProviderRead {
  readonly provider: string;
  /** Passed to the provider verbatim as `$1` (decoding is the provider's job, D10). */
  readonly uri: string;
  /** 0 means no timeout. */
  readonly timeoutSecs: number;
  readonly signal?: AbortSignal;
}

/**
 * Runs `providers/<provider>.sh <uri>` (project first, then the framework's) with the
 * curated provider environment and cwd = project root, and returns its stdout exactly as
 * written (D23). Failures are JSON-RPC errors per the provider exit-code contract.
 */
export async function readWithProvider(host: ProviderHost, read: ProviderRead): Promise<Buffer> {
  const script = resolveProviderScript(read.provider, {
    project: host.layout.providersDir,
    framework: host.home.providersDir,
  });
  if (!script) {
    throw ProjectError.failed('Unsupported resource provider', {
      provider: read.provider,
      uri: read.uri,
      hint:
        `no providers/${read.provider}.sh in the project or the framework; set "provider" in the resource ` +
        `metadata or add the script`,
    });
  }
  const sessionRoots = host.sessionRoots ? await host.sessionRoots() : [];
  const context = { provider: read.provider, uri: read.uri };
  if (script === join(host.home.providersDir, 'file.sh')) return readInProcess(host, read, sessionRoots);
  const run = await runScript(host, {
    script,
    args: [read.uri],
    sessionRoots,
    maxStdoutBytes: host.maxResourceBytes,
    maxStderrBytes: host.maxStderrBytes,
    timeoutMs: read.timeoutSecs * 1000,
    ...(read.signal ? { signal: read.signal } : {}),
  });
  const failure = processFailure(run);
  if (failure?.kind === 'exit') throw providerFailure(failure.status, run.stderrTail, context);
  if (failure)
    throw ProjectError.failed(failureMessage(failure, providerWording(host, read)), failureData(failure, host, read));
  return run.stdout;
}

/**
 * How a provider's failures read (original-behaviour §6.1): the size cap names
 * MCPBASH_MAX_RESOURCE_BYTES, a cancelled read is "Resource read cancelled".
 */
function providerWording(host: ProviderHost, read: ProviderRead): FailureWording {
  return {
    subject: `Resource provider ${read.provider}`,
    timeoutSecs: read.timeoutSecs,
    limits: { stdout: host.maxResourceBytes, stderr: host.maxStderrBytes },
    override: (failure) => {
      if (failure.kind === 'cancelled') return 'Resource read cancelled';
      if (failure.kind === 'overflow' && failure.stream === 'stdout') return tooLargeMessage(host);
      return undefined;
    },
  };
}

function failureData(failure: ProcessFailure, host: ProviderHost, read: ProviderRead): Record<string, unknown> {
  const context = { provider: read.provider, uri: read.uri };
  if (failure.kind === 'timed-out') return { ...context, timeoutSecs: read.timeoutSecs };
  if (failure.kind === 'overflow' && failure.stream === 'stdout') return { ...context, limit: host.maxResourceBytes };
  return context;
}

function tooLargeMessage(host: ProviderHost): string {
  return `Resource exceeded MCPBASH_MAX_RESOURCE_BYTES (${host.maxResourceBytes} bytes)`;
}

function tooLarge(host: ProviderHost, context: { provider: string; uri: string }): ProjectError {
  return ProjectError.failed(tooLargeMessage(host), {
    ...context,
    limit: host.maxResourceBytes,
  });
}

/** The framework's own file provider, served in-process (file-provider.ts; file.sh calls the same code). */
async function readInProcess(host: ProviderHost, read: ProviderRead, sessionRoots: readonly string[]): Promise<Buffer> {
  const { layout } = host;
  const context = { provider: read.provider, uri: read.uri };
  if (read.signal?.aborted) throw ProjectError.failed('Resource read cancelled', context);
  const outcome = await readFileUri({
    uri: read.uri,
    cwd: layout.root,
    rootLists: [resourceRoots(host.config, layout, sessionRoots), [layout.resourcesDir], [layout.root]],
    maxBytes: host.maxResourceBytes,
  });
  if (outcome.overflow) throw tooLarge(host, context);
  if (outcome.exitCode !== 0) throw providerFailure(outcome.exitCode, outcome.stderr, context);
  return outcome.stdout;
}
