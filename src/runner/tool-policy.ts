import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { failureMessage, type ProcessResult, processFailure } from '../process/process-result.js';
import { runProcess } from '../process/process-runner.js';
import { forwardHookLog, stderrForLog } from '../project/hook-log.js';
import { insecureFileReason } from '../project/secure-file.js';
import { ErrorCode } from '../spec/error-codes.js';
import type { LogSink } from '../spec/logging-levels.js';
import { RpcError } from '../spec/rpc-error.js';

/** How long policy.sh may take to decide; past it the call is denied. */
const POLICY_TIMEOUT_MS = 10_000;

export interface PolicySettings {
  /** MCPBASH_TOOL_ALLOWLIST names; `*` or `all` allow every tool. */
  readonly allowlist: readonly string[];
  /** MCPBASH_TOOL_ALLOW_DEFAULT=allow|all: an empty allowlist allows everything. */
  readonly allowWhenEmpty: boolean;
  /** Tools allowed regardless (the getting-started tool). */
  readonly implicitlyAllowed: readonly string[];
  /** `server.d/policy.sh`, if the project has one. */
  readonly policyFile: string | undefined;
  readonly policyDriver: string;
  /**
   * The hook's environment (hookEnvironment: project paths, MCP_SDK, the JSON tool); built
   * only when there is a policy.sh to run, which most projects do not have.
   */
  readonly env: () => NodeJS.ProcessEnv;
  /** Where the hook's own log records and its failures go. */
  readonly log: LogSink;
  /** The project root: policy.sh is trusted only when it, too, is safe from others. */
  readonly projectRoot: string;
  readonly cwd: string;
  readonly scratchDir: string;
  /** How the caller words refusals, and what policy.sh is told about where it runs. */
  readonly wording: PolicyWording;
}

/**
 * What differs between the callers of the policy: the words of a default-policy refusal
 * (`detail` says why: the allowlist is empty, or lacks the tool) and the value policy.sh
 * sees as MCPBASH_TOOL_POLICY_CONTEXT (1.x's name for where the check runs).
 */
export interface PolicyWording {
  denied(toolName: string, detail: string): string;
  readonly hookContext: string;
}

/** The server's wording: what to set, and where. */
export const serverPolicyWording: PolicyWording = {
  denied: (toolName, detail) =>
    `Tool '${toolName}' blocked by policy: ${detail}. Set MCPBASH_TOOL_ALLOWLIST="${toolName}" (space- or ` +
    `comma-separated names, or "*" for every tool) in the server's environment, e.g. the "env" of your MCP ` +
    `client config.`,
  hookContext: '',
};

function denied(toolName: string, settings: PolicySettings, reason: 'empty' | 'not-listed'): RpcError {
  const detail =
    reason === 'empty'
      ? 'MCPBASH_TOOL_ALLOWLIST is empty, and tools are denied by default'
      : `it is not in MCPBASH_TOOL_ALLOWLIST (${settings.allowlist.join(',')})`;
  return RpcError.invalidParams(settings.wording.denied(toolName, detail));
}

/** The default policy: deny by default, allow what MCPBASH_TOOL_ALLOWLIST names. */
function defaultPolicy(toolName: string, settings: PolicySettings): void {
  if (settings.implicitlyAllowed.includes(toolName)) return;
  const list = settings.allowlist;
  if (list.includes('*') || list.includes('all') || list.includes(toolName)) return;
  if (list.length === 0 && settings.allowWhenEmpty) return;
  throw denied(toolName, settings, list.length === 0 ? 'empty' : 'not-listed');
}

/** Reads what policy.sh passed to `mcp_tools_error CODE MESSAGE [DATA]`. */
function policyError(file: string, toolName: string): RpcError {
  const fallback = RpcError.invalidParams(`Tool '${toolName}' blocked by policy`);
  if (!existsSync(file)) return fallback;
  const [code = '', message = '', data = ''] = readFileSync(file, 'utf8').split('\0');
  const numeric = Number(code);
  let parsedData: unknown;
  if (data.trim() !== '') {
    try {
      parsedData = JSON.parse(data);
    } catch {
      parsedData = data;
    }
  }
  if (!Number.isInteger(numeric)) return fallback;
  return new RpcError(numeric, message || `Tool '${toolName}' blocked by policy`, parsedData);
}

/**
 * Logs why policy.sh denied a call: a deliberate denial (mcp_tools_error, or a plain
 * `return 1` with nothing on stderr) at debug; anything else - another status, stderr
 * output such as "command not found" - as a warning with the status and stderr, since it
 * usually means the hook itself is broken.
 */
function reportDenial(toolName: string, run: ProcessResult, chosenError: boolean, log: LogSink): void {
  const failure = processFailure(run);
  const why =
    failure === undefined || failure.kind === 'exit'
      ? `mcp_tools_policy_check returned ${String(run.exitCode ?? run.signal)}`
      : failureMessage(failure, { subject: 'it', timeoutSecs: POLICY_TIMEOUT_MS / 1000 });
  const message = `server.d/policy.sh denied tool '${toolName}': ${why} (${stderrForLog(run.stderrTail)})`;
  if (run.stderrTail.trim() === '' && (chosenError || run.exitCode === 1)) log.debug('mcp.tools.policy', message);
  else log.warning('mcp.tools.policy', message);
}

/**
 * Decides whether a tool may run: `server.d/policy.sh`'s `mcp_tools_policy_check NAME
 * METADATA_JSON`, when the file is trustworthy (as are server.d/ and the project root) and
 * defines it, replaces the default allowlist check; a non-zero return denies, with the code
 * and message it chose through `mcp_tools_error`. An untrustworthy policy.sh denies
 * everything (it cannot be ignored safely: the project meant to restrict tools).
 */
export async function enforceToolPolicy(toolName: string, metadata: unknown, settings: PolicySettings): Promise<void> {
  const policy = settings.policyFile;
  if (!policy || !existsSync(policy)) {
    defaultPolicy(toolName, settings);
    return;
  }
  const insecure = insecureFileReason(policy, [dirname(policy), settings.projectRoot]);
  if (insecure)
    throw RpcError.invalidParams(
      `Tool '${toolName}' blocked by policy: server.d/policy.sh is not trusted (${insecure})`,
    );
  const work = mkdtempSync(join(settings.scratchDir, 'policy-'));
  try {
    const errorFile = join(work, 'error');
    const logFile = join(work, 'log');
    // Through a file, not an argument: one argument of more than 128 KiB fails exec (E2BIG).
    const metadataFile = join(work, 'metadata.json');
    writeFileSync(metadataFile, JSON.stringify(metadata));
    const run = await runProcess({
      command: 'bash',
      args: [settings.policyDriver, policy, toolName, metadataFile],
      cwd: settings.cwd,
      env: {
        ...settings.env(),
        MCPBASH_POLICY_ERROR_FILE: errorFile,
        MCP_LOG_STREAM: logFile,
        // 1.x's name for where the check runs (its default policy worded refusals by it).
        MCPBASH_TOOL_POLICY_CONTEXT: settings.wording.hookContext,
      },
      maxStdoutBytes: 64 * 1024,
      maxStderrBytes: 64 * 1024,
      stderrTailBytes: 1024,
      killGraceMs: 500,
      timeoutMs: POLICY_TIMEOUT_MS,
    });
    forwardHookLog(logFile, settings.log);
    if (run.exitCode === 100) {
      defaultPolicy(toolName, settings);
      return;
    }
    if (run.exitCode === 0) return;
    if (run.exitCode === 101) {
      settings.log.warning('mcp.tools.policy', `server.d/policy.sh failed to load (${stderrForLog(run.stderrTail)})`);
      throw RpcError.internal(`server.d/policy.sh failed to load: ${run.stderrTail.trim() || 'see the server log'}`);
    }
    reportDenial(toolName, run, existsSync(errorFile), settings.log);
    throw policyError(errorFile, toolName);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Why the server will not run `relativePath` as a tool script: it does not exist, or it
 * resolves (through symlinks) outside the tools directory; else the resolved script.
 * `validate` asks the same question.
 */
export function toolScriptContainment(
  toolsDir: string,
  relativePath: string,
): { readonly script: string } | { readonly refused: string } {
  let root: string;
  let script: string;
  try {
    root = realpathSync.native(toolsDir);
    script = realpathSync.native(join(toolsDir, relativePath));
  } catch {
    return { refused: `${relativePath} does not exist in the tools directory` };
  }
  if (!script.startsWith(`${root}/`) && !(process.platform === 'win32' && script.startsWith(`${root}\\`))) {
    return { refused: `${relativePath} resolves outside the tools directory` };
  }
  return { script };
}

/**
 * The tool script must be inside the tools directory (symlinks resolved), and as
 * trustworthy as any project code we run: owned by us, not writable by group or others.
 */
export function resolveToolScript(toolsDir: string, relativePath: string, toolName: string): string {
  const rejected = (why: string) =>
    new RpcError(ErrorCode.InvalidParams, `Tool '${toolName}' path rejected by policy: ${why}`);
  const contained = toolScriptContainment(toolsDir, relativePath);
  if ('refused' in contained) throw rejected(contained.refused);
  const insecure = insecureFileReason(contained.script, []);
  if (insecure) throw rejected(insecure);
  return contained.script;
}
