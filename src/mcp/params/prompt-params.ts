import { isObject } from '../../json/objects.js';
import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import type { GetPromptParams } from '../../spec/types.js';
import { invalidParam, paramsObject } from './params-reader.js';

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
