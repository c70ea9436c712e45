import { asObject } from '../../json/objects.js';
import { RpcError } from '../../jsonrpc/rpc-error.js';
import { renderPrompt } from '../../project/prompts/prompt-render.js';
import { readPromptTemplate } from '../../project/prompts/prompt-template.js';
import { titlesSupported, toListedPrompt } from '../listed-items.js';
import { listResult, paginate } from '../pagination.js';
import type { HandlerModule } from '../server-context.js';
import type { GetPromptResult } from '../types.js';

/**
 * prompts/list (paginated; arguments in MCP's list form) and prompts/get: the template
 * rendered with `{{name}}` placeholders (D9, D22) as one text message in the prompt's role,
 * plus 1.x's fields (original-behaviour §7.1): `text`, `arguments` (echoed) and `metadata`.
 */
export const promptsModule: HandlerModule = (context) => {
  const { engine, registries, session, project, config } = context;

  engine.setRequestHandler('prompts/list', async ({ params }) => {
    const snapshot = await registries.prompts.snapshot();
    const page = paginate(snapshot.items, 'prompts', snapshot.hash, asObject(params));
    const withTitle = titlesSupported(session.protocolVersion);
    return listResult('prompts', { ...page, items: page.items.map((item) => toListedPrompt(item, withTitle)) });
  });

  engine.setRequestHandler('prompts/get', async ({ params }): Promise<GetPromptResult> => {
    const request = asObject(params);
    if (typeof request.name !== 'string' || request.name === '') {
      throw RpcError.invalidParams('Prompt name is required', 'Pass params.name, a name from prompts/list');
    }
    const { items } = await registries.prompts.snapshot();
    const prompt = items.find((item) => item.name === request.name);
    if (!prompt)
      throw RpcError.invalidParams('Prompt not found', { name: request.name, hint: 'prompts/list shows the names' });
    const template = readPromptTemplate(project.layout.promptsDir, prompt, config.maxToolOutputBytes);
    const text = renderPrompt(prompt.name, template, prompt.arguments, request.arguments);
    const result: GetPromptResult = {
      messages: [{ role: prompt.role, content: { type: 'text', text } }],
      text,
      arguments: request.arguments ?? {},
    };
    if (prompt.description) result.description = prompt.description;
    if (prompt.metadata !== undefined && prompt.metadata !== null) result.metadata = prompt.metadata;
    return result;
  });
};
