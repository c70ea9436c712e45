import { envInt } from '../../config/env-values.js';
import { asObject } from '../../json/objects.js';
import { RpcError } from '../../jsonrpc/rpc-error.js';
import {
  type CompletionCursor,
  decodeCompletionCursor,
  encodeCompletionCursor,
} from '../../project/completions/completion-cursor.js';
import {
  builtinCompletions,
  type CompletionPage,
  MAX_COMPLETION_VALUES,
} from '../../project/completions/completion-output.js';
import {
  type CompletionHost,
  type CompletionRequest,
  runCompletionScript,
} from '../../project/completions/completion-runner.js';
import { type CompletionSource, selectCompletionSource } from '../../project/completions/completion-source.js';
import { canonicalJson, sha256Hex } from '../../project/registry/canonical-json.js';
import type { HandlerModule, ServerContext } from '../server-context.js';
import type { CompleteResult, JsonObject } from '../types.js';

/** 1.x's page size when the client sets no `limit` (an mcp-bash extension). */
const DEFAULT_LIMIT = 5;

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `params.limit`: default 5, at most 100; invalid or 0 means the default. */
function completionLimit(value: unknown): number {
  const limit = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit <= 0) return DEFAULT_LIMIT;
  return Math.min(limit, MAX_COMPLETION_VALUES);
}

/**
 * The name whose completions are asked for (original-behaviour §8.1): a prompt's name, or
 * for a resource the name of the registered resource with that URI, else of the resource
 * template whose `uriTemplate` it is (what MCP clients send to complete a template's
 * variables), else the URI itself.
 */
async function referencedName(context: ServerContext, ref: unknown): Promise<string> {
  if (typeof ref !== 'object' || ref === null || typeof (ref as JsonObject).type !== 'string') {
    throw RpcError.invalidParams(
      'Completion ref is required',
      'Pass params.ref: {"type":"ref/prompt","name":...} or {"type":"ref/resource","uri":...}',
    );
  }
  const { type, name, uri } = ref as JsonObject;
  const invalid = () =>
    RpcError.invalidParams(
      'Completion ref is invalid',
      'Use {"type":"ref/prompt","name":...} or {"type":"ref/resource","uri":...}',
    );
  const promptName = type === 'ref/prompt' ? nonEmpty(name) : undefined;
  if (promptName) return promptName;
  const resourceUri = type === 'ref/resource' ? nonEmpty(uri) : undefined;
  if (!resourceUri) throw invalid();
  const resource = (await context.registries.resources.snapshot()).items.find((item) => item.uri === resourceUri);
  if (resource) return resource.name;
  const template = (await context.registries.resourceTemplates.snapshot()).items.find(
    (item) => item.uriTemplate === resourceUri,
  );
  return template?.name ?? resourceUri;
}

/**
 * What scripts see as MCP_COMPLETION_ARGS_JSON (1.x's shape): `{query, prefix,
 * argument:{name,value}, context:{arguments}, ref}`; `query` is the value typed so far.
 */
function completionArguments(request: JsonObject): { args: JsonObject; query: string } {
  const argument = asObject(request.argument);
  const argumentName = nonEmpty(argument.name);
  if (!argumentName)
    throw RpcError.invalidParams(
      'Completion argument name is required',
      'Pass params.argument: {"name":..., "value":...}',
    );
  const query = typeof argument.value === 'string' ? argument.value : '';
  const args: JsonObject = {
    query,
    prefix: query,
    argument: { name: argumentName, value: query },
    context: { arguments: asObject(asObject(request.context).arguments) },
    ref: asObject(request.ref),
  };
  return { args, query };
}

/** Runs what completes the name: the built-in generator or a script. */
function producePage(
  source: CompletionSource,
  request: CompletionRequest,
  query: string,
  host: () => CompletionHost,
  signal: AbortSignal,
): Promise<CompletionPage> | CompletionPage {
  if (source.kind === 'builtin') return builtinCompletions(request.name, query, request.offset, request.limit);
  return runCompletionScript(source, request, host(), signal);
}

function completionResult(
  page: CompletionPage,
  cursor: Omit<CompletionCursor, 'ver' | 'kind' | 'offset'>,
  offset: number,
): CompleteResult {
  const values = page.values.slice(0, MAX_COMPLETION_VALUES);
  const completion: CompleteResult['completion'] = { values, hasMore: page.hasMore };
  if (page.hasMore) {
    completion.nextCursor = encodeCompletionCursor({
      ...cursor,
      offset: page.next ?? offset + values.length,
      ...(page.cursor !== undefined ? { scriptCursor: page.cursor } : {}),
    });
  }
  return { completion };
}

/** completion/complete (queued: scripts are processes), per original-behaviour §8. */
export const completionModule: HandlerModule = (context) => {
  const { engine, registries, config, env } = context;
  let host: CompletionHost | undefined;
  const completionHost = (): CompletionHost =>
    (host ??= {
      layout: context.project.layout,
      home: context.home,
      env,
      jsonTool: context.parts.jsonTool,
      defaultTimeoutSecs: envInt(env, 'MCPBASH_COMPLETION_TIMEOUT_SECS', 5, { min: 0 }),
      stderrTailBytes: Math.max(config.stderrTailBytes, 1024),
      killGraceMs: config.killGraceMs,
      processes: context.processes,
    });

  engine.setRequestHandler(
    'completion/complete',
    async ({ params, signal }): Promise<CompleteResult> => {
      const request = asObject(params);
      const name = await referencedName(context, request.ref);
      const { args, query } = completionArguments(request);
      const argsHash = sha256Hex(canonicalJson(args));
      const rawCursor = request.cursor ?? request.nextCursor;
      const cursor =
        rawCursor === undefined || rawCursor === null ? undefined : decodeCompletionCursor(rawCursor, name, argsHash);
      const catalog = {
        registrations: await registries.completions(),
        prompts: (await registries.prompts.snapshot()).items,
        resources: (await registries.resources.snapshot()).items,
      };
      const source = selectCompletionSource(name, catalog, context.project.layout);
      if (cursor && cursor.script !== source.key) {
        throw RpcError.invalidParams(
          'Cursor no longer valid',
          'What completes this argument changed since the cursor was issued; request the first page again',
        );
      }
      const offset = cursor?.offset ?? 0;
      const completionRequest: CompletionRequest = {
        name,
        args,
        argsHash,
        limit: completionLimit(request.limit),
        offset,
        ...(cursor?.scriptCursor !== undefined ? { scriptCursor: cursor.scriptCursor } : {}),
      };
      const page = await producePage(source, completionRequest, query, completionHost, signal);
      return completionResult(page, { name, args: argsHash, script: source.key }, offset);
    },
    { queued: true },
  );
};
