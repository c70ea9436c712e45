import { canonicalJson, sha256Hex } from '../../json/canonical-json.js';
import { asObject } from '../../json/objects.js';
import type { JsonRpcParams } from '../../jsonrpc/messages.js';
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
import { type CompletionSource, selectCompletionSource } from '../../project/completions/completion-source.js';
import { type CompletionHost, type CompletionRequest, runCompletionScript } from '../../providers/completion-runner.js';
import type { CompleteParams, CompleteResult, CompletionReference, JsonObject } from '../../spec/types.js';
import { invalidParam, nonEmptyString, paramsObject, positiveCount } from '../params-reader.js';
import { scriptHost } from '../script-host.js';
import type { HandlerModule, ProjectRole } from '../server-context.js';

/** 1.x's page size when the client sets no `limit` (an mcp-bash extension). */
const DEFAULT_LIMIT = 5;

const REF_HINT = 'Use {"type":"ref/prompt","name":...} or {"type":"ref/resource","uri":...}';

/** A `completion/complete` (original-behaviour §8.1). */
interface CompletionParams extends Omit<CompleteParams, 'context'> {
  /** The ref as sent (completion scripts see it whole in MCP_COMPLETION_ARGS_JSON). */
  readonly rawRef: JsonObject;
  readonly context: { arguments: JsonObject };
  /** `cursor` (or 1.x's `nextCursor`) as sent; decoded against the name and arguments later. */
  readonly cursor: unknown;
  /** `params.limit`: default 5, at most 100; invalid or 0 means the default. */
  readonly limit: number;
}

function referenceOf(value: unknown): CompletionReference {
  const ref = asObject(value);
  if (typeof ref.type !== 'string')
    throw invalidParam('ref', 'Completion ref is required', {
      hint: 'Pass params.ref: {"type":"ref/prompt","name":...} or {"type":"ref/resource","uri":...}',
    });
  const name = ref.type === 'ref/prompt' ? nonEmptyString(ref.name) : undefined;
  if (name !== undefined) return { type: 'ref/prompt', name };
  const uri = ref.type === 'ref/resource' ? nonEmptyString(ref.uri) : undefined;
  if (uri !== undefined) return { type: 'ref/resource', uri };
  throw invalidParam('ref', 'Completion ref is invalid', { hint: REF_HINT });
}

/** `completion/complete`: a ref, the argument being completed (a name, the value typed so far), paging. */
function parseCompletionParams(params: JsonRpcParams | undefined): CompletionParams {
  const request = paramsObject(params);
  const ref = referenceOf(request.ref);
  const argument = asObject(request.argument);
  const name = nonEmptyString(argument.name);
  if (name === undefined)
    throw invalidParam('argument.name', 'Completion argument name is required', {
      hint: 'Pass params.argument: {"name":..., "value":...}',
    });
  const cursor = request.cursor ?? request.nextCursor;
  return {
    ref,
    rawRef: asObject(request.ref),
    argument: { name, value: typeof argument.value === 'string' ? argument.value : '' },
    context: { arguments: asObject(asObject(request.context).arguments) },
    cursor: cursor === null ? undefined : cursor,
    limit: Math.min(positiveCount(request.limit) ?? DEFAULT_LIMIT, MAX_COMPLETION_VALUES),
  };
}

/**
 * The name whose completions are asked for (original-behaviour §8.1): a prompt's name, or
 * for a resource the name of the registered resource with that URI, else of the resource
 * template whose `uriTemplate` it is (what MCP clients send to complete a template's
 * variables), else the URI itself.
 */
async function referencedName(context: Pick<ProjectRole, 'registries'>, ref: CompletionReference): Promise<string> {
  if (ref.type === 'ref/prompt') return ref.name;
  const resourceUri = ref.uri;
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
function completionArguments(request: CompletionParams): JsonObject {
  const query = request.argument.value;
  return { query, prefix: query, argument: { ...request.argument }, context: request.context, ref: request.rawRef };
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

/** The page of completions a request asks for: the built-in generator's, or a script's. */
async function complete(
  context: Pick<ProjectRole, 'registries' | 'project'>,
  request: CompletionParams,
  host: () => CompletionHost,
  signal: AbortSignal,
): Promise<CompleteResult> {
  const { registries } = context;
  const name = await referencedName(context, request.ref);
  const args = completionArguments(request);
  const argsHash = sha256Hex(canonicalJson(args));
  const cursor = request.cursor === undefined ? undefined : decodeCompletionCursor(request.cursor, name, argsHash);
  const catalog = {
    registrations: await registries.completions(),
    prompts: (await registries.prompts.snapshot()).items,
    resources: (await registries.resources.snapshot()).items,
  };
  const source = selectCompletionSource(name, catalog, context.project.layout);
  if (cursor && cursor.script !== source.key) {
    throw invalidParam('cursor', 'Cursor no longer valid', {
      hint: 'What completes this argument changed since the cursor was issued; request the first page again',
    });
  }
  const offset = cursor?.offset ?? 0;
  const completionRequest: CompletionRequest = {
    name,
    args,
    argsHash,
    limit: request.limit,
    offset,
    ...(cursor?.scriptCursor !== undefined ? { scriptCursor: cursor.scriptCursor } : {}),
  };
  const page = await producePage(source, completionRequest, request.argument.value, host, signal);
  return completionResult(page, { name, args: argsHash, script: source.key }, offset);
}

/** completion/complete (queued: scripts are processes), per original-behaviour §8. */
export const completionModule: HandlerModule = {
  name: 'completion',
  minimalMode: { methodPrefix: 'completion/', label: 'Completion' },
  capabilities: (session) => (session.features.completions ? { completions: {} } : {}),
  register(context) {
    let host: CompletionHost | undefined;
    const completionHost = (): CompletionHost =>
      (host ??= {
        ...scriptHost(context),
        jsonTool: context.parts.jsonTool,
        defaultTimeoutSecs: context.config.completionTimeoutSecs,
      });
    context.methods.request(
      'completion/complete',
      parseCompletionParams,
      ({ params, signal }) => complete(context, params, completionHost, signal),
      { queued: true },
    );
    return undefined;
  },
};
