import { type PromptDefinition, promptArguments } from '../project/prompts/prompt-definition.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../project/resources/resource-definition.js';
import type { ToolDefinition } from '../project/tools/tool-definition.js';
import { UI_MIME_TYPE, type UiResourceDefinition } from '../project/ui/ui-resource.js';
import type { Prompt, PromptArgument, Resource, ResourceTemplate, Tool } from '../spec/types.js';
import type { ProtocolVersion } from './protocol-versions.js';

/** `title` exists on tools, resources, prompts and their arguments from 2025-06-18 (D21, D40). */
export function titlesSupported(version: ProtocolVersion): boolean {
  return version !== '2025-03-26' && version !== '2024-11-05';
}

type Listable = Pick<ResourceDefinition, 'title' | 'icons' | 'annotations' | '_meta'> & {
  description?: string;
  mimeType?: string;
};

/** The optional spec fields resources and templates share, present only when set. */
function optionalFields(item: Listable, withTitle: boolean): Partial<Resource> {
  const fields: Partial<Resource> = {};
  if (withTitle && item.title) fields.title = item.title;
  if (item.description) fields.description = item.description;
  if (item.mimeType) fields.mimeType = item.mimeType;
  if (item.annotations) fields.annotations = item.annotations;
  if (item.icons) fields.icons = item.icons;
  if (item._meta) fields._meta = item._meta;
  return fields;
}

/** A tool as tools/list sends it: spec fields only, no `path` or `timeoutSecs` (D16). */
export function toListedTool(tool: ToolDefinition, withTitle: boolean): Tool {
  const listed: Tool = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
  if (withTitle && tool.title) listed.title = tool.title;
  if (tool.outputSchema) listed.outputSchema = tool.outputSchema;
  if (tool.annotations) listed.annotations = tool.annotations;
  if (tool.icons) listed.icons = tool.icons;
  if (tool._meta) listed._meta = tool._meta;
  return listed;
}

/** A resource as resources/list sends it: spec fields only, no `path` or `provider` (D16). */
export function toListedResource(item: ResourceDefinition, withTitle: boolean): Resource {
  const listed: Resource = { uri: item.uri, name: item.name, ...optionalFields(item, withTitle) };
  if (item.size !== undefined) listed.size = item.size;
  return listed;
}

/**
 * A UI resource in resources/list (original-behaviour §5.3): the MCP Apps MIME type and
 * `_meta.ui` (CSP, permissions, border preference), as 1.x listed them.
 */
export function toListedUiResource(item: UiResourceDefinition, withTitle: boolean): Resource {
  const listed: Resource = { uri: item.uri, name: item.name, description: item.description, mimeType: UI_MIME_TYPE };
  if (withTitle && item.title) listed.title = item.title;
  listed._meta = { ui: { ...item.ui } };
  return listed;
}

/** A template as resources/templates/list sends it (D16). */
export function toListedTemplate(item: ResourceTemplateDefinition, withTitle: boolean): ResourceTemplate {
  return { uriTemplate: item.uriTemplate, name: item.name, ...optionalFields(item, withTitle) };
}

/** A prompt as prompts/list sends it: arguments in MCP's list form, no `path`/`role`/`metadata` (D16). */
export function toListedPrompt(item: PromptDefinition, withTitle: boolean): Prompt {
  const prompt: Prompt = { name: item.name };
  if (withTitle && item.title) prompt.title = item.title;
  if (item.description) prompt.description = item.description;
  prompt.arguments = promptArguments(item.arguments).map(
    ({ title, ...argument }): PromptArgument => (withTitle && title ? { ...argument, title } : argument),
  );
  if (item.icons) prompt.icons = item.icons;
  if (item._meta) prompt._meta = item._meta;
  return prompt;
}
