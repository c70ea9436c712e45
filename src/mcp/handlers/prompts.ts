import { renderPrompt } from '../../project/prompts/prompt-render.js';
import { readPromptTemplate } from '../../project/prompts/prompt-template.js';
import type { GetPromptResult } from '../../spec/types.js';
import { titlesSupported, toListedPrompt } from '../listed-items.js';
import { listPage } from '../pagination.js';
import { parseListParams } from '../params/list-params.js';
import { invalidParam } from '../params/params-reader.js';
import { type PromptGetRequest, parsePromptGetParams } from '../params/prompt-params.js';
import type { HandlerModule, ServerContext } from '../server-context.js';

/**
 * The template rendered with `{{name}}` placeholders (D9, D22) as one text message in the
 * prompt's role, plus 1.x's fields (original-behaviour §7.1): `text`, `arguments` (echoed)
 * and `metadata`.
 */
async function getPrompt(context: ServerContext, request: PromptGetRequest): Promise<GetPromptResult> {
  const { items } = await context.registries.prompts.snapshot();
  const prompt = items.find((item) => item.name === request.name);
  if (!prompt)
    throw invalidParam('name', 'Prompt not found', { name: request.name, hint: 'prompts/list shows the names' });
  const template = readPromptTemplate(context.project.layout.promptsDir, prompt, context.config.maxToolOutputBytes);
  const text = renderPrompt(prompt.name, template, prompt.arguments, request.values);
  const result: GetPromptResult = {
    messages: [{ role: prompt.role, content: { type: 'text', text } }],
    text,
    arguments: request.rawArguments ?? {},
  };
  if (prompt.description) result.description = prompt.description;
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
    methods.request('prompts/get', parsePromptGetParams, ({ params }) => getPrompt(context, params));
    return undefined;
  },
};
