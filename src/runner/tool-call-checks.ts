import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { failureMessage, type ProcessResult, processFailure } from '../process/process-result.js';
import { runProcess } from '../process/process-runner.js';
import { hookEnvironment } from '../project/hook-environment.js';
import { forwardHookLog, stderrForLog } from '../project/hook-log.js';
import { insecureFileReason } from '../project/secure-file.js';
import type { ToolDefinition } from '../project/tools/tool-definition.js';
import { ErrorCode } from '../spec/error-codes.js';
import type { LogSink } from '../spec/logging-levels.js';
import { RpcError } from '../spec/rpc-error.js';
import type { JsonObject } from '../spec/types.js';
import { closestMatch } from '../text/did-you-mean.js';
import { describeArgumentIssue } from '../validation/argument-words.js';
import type { SchemaCheck } from '../validation/json-schema.js';
import type { ToolEnvMode } from './tool-environment.js';
import type { CheckRoles } from './tool-runtime.js';

/** A call that passed every check, ready to run. */
export interface PreparedToolCall {
  readonly tool: ToolDefinition;
  readonly scriptPath: string;
  readonly args: JsonObject;
  readonly envMode: ToolEnvMode;
}

/** Runtimes already warned that tools get the whole environment. */
const inheritWarned = new WeakSet<CheckRoles>();

/**
 * MCPBASH_TOOL_ENV_MODE; `inherit` needs MCPBASH_TOOL_ENV_INHERIT_ALLOW=true, and is
 * warned about once per server (as 1.x did): tools then see every secret the server has.
 */
function toolEnvMode(runtime: CheckRoles): ToolEnvMode {
  const { envMode: mode, inheritAllowed } = runtime.config.tools;
  if (mode === 'inherit') {
    if (!inheritAllowed) {
      throw RpcError.invalidParams(
        'MCPBASH_TOOL_ENV_MODE=inherit gives tools the whole server environment; set ' +
          'MCPBASH_TOOL_ENV_INHERIT_ALLOW=true to confirm, or use allowlist mode',
      );
    }
    if (!inheritWarned.has(runtime)) {
      inheritWarned.add(runtime);
      runtime.log.warning(
        'mcp.tools',
        'MCPBASH_TOOL_ENV_MODE=inherit: tools receive the full server environment, secrets included',
      );
    }
    return 'inherit';
  }
  return mode;
}

/**
 * Arguments that fail the tool's inputSchema: `-32602`, or under 2025-11-25 a tool result
 * with the same message, which the model can read and retry from (SEP-1303, D292).
 */
export class InvalidArgumentsError extends RpcError {
  constructor(message: string, data: JsonObject) {
    super(ErrorCode.InvalidParams, message, data);
  }
}

/**
 * The checks before a tool runs, in 1.x's order (original-behaviour §3.1), after the
 * request's name and arguments object (checked by the caller: tools/call's params parser,
 * run-tool's options): lookup, policy (policy.sh or the allowlist), script path safety,
 * environment mode; then, new in 2.x, the arguments against the tool's inputSchema.
 */
export async function prepareToolCall(
  name: string,
  args: JsonObject,
  loadTools: () => Promise<readonly ToolDefinition[]>,
  runtime: CheckRoles,
): Promise<PreparedToolCall> {
  const tools = await loadTools();
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    const closest = closestMatch(
      name,
      tools.map((candidate) => candidate.name),
    );
    throw RpcError.invalidParams(`Tool '${name}' not found`, {
      hint:
        `${closest === undefined ? '' : `Did you mean '${closest}'? `}tools/list shows the tools; ` +
        "'mcp-bash validate' lists them and says why a script is not one",
      ...(closest === undefined ? {} : { didYouMean: closest }),
    });
  }
  await enforceToolPolicy(name, tool, runtime);
  const scriptPath = resolveToolScript(runtime.layout.toolsDir, tool.path, name);
  const envMode = toolEnvMode(runtime);
  const check = runtime.validator.check(tool.inputSchema, args);
  if (check.valid === false) {
    const problems = check.issues.map(describeArgumentIssue);
    throw new InvalidArgumentsError(
      `Invalid arguments for tool '${name}': ${problems.map((problem) => problem.message).join('; ')}`,
      { errors: problems },
    );
  }
  const uncompiled = uncompiledSchemaWarning(name, check);
  if (uncompiled) runtime.log.warning('mcp.tools', uncompiled);
  return { tool, scriptPath, args, envMode };
}

/**
 * The warning for a tool whose inputSchema does not compile (its arguments go unchecked),
 * given the result of checking anything against it; `validate` gives the same one.
 */
export function uncompiledSchemaWarning(name: string, check: SchemaCheck): string | undefined {
  return check.valid === 'unchecked'
    ? `${name}: inputSchema does not compile (${check.reason}); arguments not validated`
    : undefined;
}

/** How long policy.sh may take to decide; past it the call is denied. */
const POLICY_TIMEOUT_MS = 10_000;

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

/** The default policy: deny by default, allow what MCPBASH_TOOL_ALLOWLIST (and run-tool's --allow) names. */
function defaultPolicy(toolName: string, runtime: CheckRoles): void {
  if (runtime.implicitlyAllowed.includes(toolName)) return;
  const list = [...runtime.config.tools.allowlist, ...runtime.extraAllowed];
  if (list.includes('*') || list.includes('all') || list.includes(toolName)) return;
  if (list.length === 0 && runtime.config.tools.allowWhenEmpty) return;
  const detail =
    list.length === 0
      ? 'MCPBASH_TOOL_ALLOWLIST is empty, and tools are denied by default'
      : `it is not in MCPBASH_TOOL_ALLOWLIST (${list.join(',')})`;
  throw RpcError.invalidParams(runtime.policyWording.denied(toolName, detail));
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
async function enforceToolPolicy(toolName: string, metadata: unknown, runtime: CheckRoles): Promise<void> {
  const { layout } = runtime;
  const policy = join(layout.serverDir, 'policy.sh');
  if (!existsSync(policy)) {
    defaultPolicy(toolName, runtime);
    return;
  }
  const insecure = insecureFileReason(policy, [dirname(policy), layout.root]);
  if (insecure)
    throw RpcError.invalidParams(
      `Tool '${toolName}' blocked by policy: server.d/policy.sh is not trusted (${insecure})`,
    );
  const work = mkdtempSync(join(runtime.stateDir, 'policy-'));
  try {
    const errorFile = join(work, 'error');
    const logFile = join(work, 'log');
    // Through a file, not an argument: one argument of more than 128 KiB fails exec (E2BIG).
    const metadataFile = join(work, 'metadata.json');
    writeFileSync(metadataFile, JSON.stringify(metadata));
    const run = await runProcess({
      command: 'bash',
      args: [join(runtime.home.hooksDir, 'policy-check.sh'), policy, toolName, metadataFile],
      cwd: layout.root,
      env: {
        ...hookEnvironment(runtime.env, layout, runtime.home, runtime.jsonTool),
        MCPBASH_POLICY_ERROR_FILE: errorFile,
        MCP_LOG_STREAM: logFile,
        // 1.x's name for where the check runs (its default policy worded refusals by it).
        MCPBASH_TOOL_POLICY_CONTEXT: runtime.policyWording.hookContext,
      },
      maxStdoutBytes: 64 * 1024,
      maxStderrBytes: 64 * 1024,
      stderrTailBytes: 1024,
      killGraceMs: 500,
      timeoutMs: POLICY_TIMEOUT_MS,
    });
    forwardHookLog(logFile, runtime.log);
    if (run.exitCode === 100) {
      defaultPolicy(toolName, runtime);
      return;
    }
    if (run.exitCode === 0) return;
    if (run.exitCode === 101) {
      runtime.log.warning('mcp.tools.policy', `server.d/policy.sh failed to load (${stderrForLog(run.stderrTail)})`);
      throw RpcError.internal(`server.d/policy.sh failed to load: ${run.stderrTail.trim() || 'see the server log'}`);
    }
    reportDenial(toolName, run, existsSync(errorFile), runtime.log);
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
function resolveToolScript(toolsDir: string, relativePath: string, toolName: string): string {
  const rejected = (why: string) =>
    new RpcError(ErrorCode.InvalidParams, `Tool '${toolName}' path rejected by policy: ${why}`);
  const contained = toolScriptContainment(toolsDir, relativePath);
  if ('refused' in contained) throw rejected(contained.refused);
  const insecure = insecureFileReason(contained.script, []);
  if (insecure) throw rejected(insecure);
  return contained.script;
}
