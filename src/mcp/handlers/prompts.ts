import { isObject } from '../../json/objects.js';
import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import { checkRequired, renderMessages, renderPrompt } from '../../project/prompts/prompt-render.js';
import { readPromptFile, readPromptTemplate } from '../../project/prompts/prompt-template.js';
import { type PromptScriptHost, runPromptScript } from '../../providers/prompt-script.js';
import type { GetPromptParams, GetPromptResult } from '../../spec/types.js';
import { titlesSupported, toListedPrompt } from '../listed-items.js';
import { listPage, parseListParams } from '../pagination.js';
import { invalidParam, paramsObject } from '../params-reader.js';
import { scriptHost } from '../script-host.js';
import type { HandlerModule, ProjectRole, SessionRole } from '../server-context.js';

/** A `prompts/get`: the name, the argument values as text, and the arguments as sent (echoed, 1.x §7.1). */
export interface PromptGetRequest extends GetPromptParams {
  /** Strings as they are, numbers and booleans in their JSON spelling; null counts as absent. */
  readonly values: ReadonlyMap<string, string>;
  readonly rawArguments: unknown;
}

/** The argument values as text; objects and arrays are refused, naming the argument. */
function argumentValues(promptName: string, args: unknown): Map<string, string> {
  const values = new Map<string, string>();
  if (args === undefined || args === null) return values;
  if (!isObject(args))
    throw invalidParam('arguments', `arguments of prompt "${promptName}" must be an object of strings`);
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') values.set(name, value);
    else if (typeof value === 'number' || typeof value === 'boolean') values.set(name, String(value));
    else
      throw invalidParam(`arguments.${name}`, `Argument "${name}" of prompt "${promptName}" must be a string`, {
        argument: name,
      });
  }
  return values;
}

/** `prompts/get`: a name, and arguments that are an object of strings (D22). */
export function parsePromptGetParams(params: JsonRpcParams | undefined): PromptGetRequest {
  const request = paramsObject(params);
  const { name } = request;
  if (typeof name !== 'string' || name === '')
    throw invalidParam('name', 'Prompt name is required', { hint: 'Pass params.name, a name from prompts/list' });
  const values = argumentValues(name, request.arguments);
  return { name, values, rawArguments: request.arguments, arguments: Object.fromEntries(values) };
}

/** What a prompts/get needs: the registries, the layout, the limits, and how scripts run. */
type PromptContext = Pick<ProjectRole, 'registries' | 'project'> &
  Pick<SessionRole, 'config'> & { readonly scripts: () => PromptScriptHost };

/**
 * A prompt's messages: a template rendered with `{{name}}` placeholders (D9, D22) as one
 * text message in the prompt's role, plus 1.x's `text` (original-behaviour §7.1); or a rich
 * prompt's messages, declared or printed by its script (D295). Every answer echoes the
 * `arguments` and carries the prompt's `metadata` (1.x).
 */
async function getPrompt(
  context: PromptContext,
  request: PromptGetRequest,
  signal: AbortSignal,
): Promise<GetPromptResult> {
  const { items } = await context.registries.prompts.snapshot();
  const prompt = items.find((item) => item.name === request.name);
  if (!prompt)
    throw invalidParam('name', 'Prompt not found', { name: request.name, hint: 'prompts/list shows the names' });
  const { promptsDir } = context.project.layout;
  const maxBytes = context.config.maxToolOutputBytes;
  let result: GetPromptResult;
  if (prompt.script !== undefined) {
    checkRequired(prompt.name, prompt.arguments, request.values);
    const output = await runPromptScript(prompt, prompt.script, request.arguments ?? {}, context.scripts(), signal);
    result = { ...output, arguments: request.rawArguments ?? {} };
  } else if (prompt.messages !== undefined) {
    const messages = renderMessages(prompt, request.values, (rel) => readPromptFile(promptsDir, prompt, rel, maxBytes));
    result = { messages, arguments: request.rawArguments ?? {} };
  } else {
    const text = renderPrompt(
      prompt.name,
      readPromptTemplate(promptsDir, prompt, maxBytes),
      prompt.arguments,
      request.values,
    );
    result = {
      messages: [{ role: prompt.role, content: { type: 'text', text } }],
      text,
      arguments: request.rawArguments ?? {},
    };
  }
  if (prompt.description && result.description === undefined) result.description = prompt.description;
  if (prompt.metadata !== undefined && prompt.metadata !== null) result.metadata = prompt.metadata;
  return result;
}

/** prompts/list (paginated; arguments in MCP's list form) and prompts/get. */
export const promptsModule: HandlerModule = {
  name: 'prompts',
  minimalMode: { methodPrefix: 'prompts/', label: 'Prompts' },
  capabilities: (session) => ({ prompts: session.features.listChanged ? { listChanged: true } : {} }),
  register(context) {
    const { methods, registries, session, config } = context;
    methods.request(
      'prompts/list',
      parseListParams,
      async ({ params }) => {
        const snapshot = await registries.prompts.snapshot();
        const withTitle = titlesSupported(session.protocolVersion);
        return listPage('prompts', snapshot.items, snapshot.hash, params, (item) => toListedPrompt(item, withTitle));
      },
      { maxResponseBytes: config.registryMaxBytes },
    );
    let host: PromptScriptHost | undefined;
    const scripts = (): PromptScriptHost =>
      (host ??= {
        ...scriptHost(context),
        jsonTool: context.parts.jsonTool,
        maxOutputBytes: config.maxToolOutputBytes,
      });
    methods.request(
      'prompts/get',
      parsePromptGetParams,
      ({ params, signal }) => getPrompt({ ...context, scripts }, params, signal),
      { queued: true },
    );
    return undefined;
  },
};
