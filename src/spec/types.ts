/**
 * MCP message shapes (specification 2025-11-25, with the older versions' subsets), for the
 * messages mcp-bash sends and receives. Field names are the wire names.
 */

import type { LoggingLevel } from './logging-levels.js';

export type JsonObject = Record<string, unknown>;

/** `_meta` on any params or result. */
export interface WithMeta {
  _meta?: JsonObject;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** serverInfo / clientInfo. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

// ---------------------------------------------------------------- lifecycle

export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: JsonObject;
  /** `{}` (2025-06-18: form only) or `{ form?: {}, url?: {} }` (2025-11-25). */
  elicitation?: { form?: JsonObject; url?: JsonObject } & JsonObject;
  experimental?: JsonObject;
  extensions?: JsonObject;
}

export interface ServerCapabilities {
  logging?: JsonObject;
  completions?: JsonObject;
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  experimental?: JsonObject;
  /** Extensions by identifier (SEP-1724), e.g. MCP Apps' `io.modelcontextprotocol/ui`. */
  extensions?: JsonObject;
}

export interface InitializeParams extends WithMeta {
  protocolVersion?: string;
  capabilities?: ClientCapabilities;
  clientInfo?: Implementation;
}

export interface InitializeResult extends WithMeta {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

// ---------------------------------------------------------------- logging & progress

export interface SetLevelParams extends WithMeta {
  level: LoggingLevel;
}

export interface LoggingMessageParams extends WithMeta {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

export type ProgressToken = string | number;

export interface ProgressParams extends WithMeta {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  message?: string;
}

export interface CancelledParams extends WithMeta {
  requestId?: string | number;
  reason?: string;
}

// ---------------------------------------------------------------- pagination

export interface PaginatedParams extends WithMeta {
  cursor?: string;
}

export interface PaginatedResult extends WithMeta {
  nextCursor?: string;
}

// ---------------------------------------------------------------- tools

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool extends WithMeta {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
}

export interface ListToolsResult extends PaginatedResult {
  tools: Tool[];
}

export interface CallToolParams extends WithMeta {
  name: string;
  arguments?: JsonObject;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}

export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType?: string;
}

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface CallToolResult extends WithMeta {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
}

// ---------------------------------------------------------------- resources

export interface Annotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

export interface Resource extends WithMeta {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
}

export interface ResourceTemplate extends WithMeta {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
}

export interface TextResourceContents extends WithMeta {
  uri: string;
  mimeType?: string;
  text: string;
}

export interface BlobResourceContents extends WithMeta {
  uri: string;
  mimeType?: string;
  blob: string;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface ListResourcesResult extends PaginatedResult {
  resources: Resource[];
}

export interface ListResourceTemplatesResult extends PaginatedResult {
  resourceTemplates: ResourceTemplate[];
}

export interface ReadResourceParams extends WithMeta {
  uri: string;
}

export interface ReadResourceResult extends WithMeta {
  contents: ResourceContents[];
}

export interface ResourceUpdatedParams extends WithMeta {
  uri: string;
}

// ---------------------------------------------------------------- prompts

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt extends WithMeta {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
}

export interface ListPromptsResult extends PaginatedResult {
  prompts: Prompt[];
}

export interface GetPromptParams extends WithMeta {
  name: string;
  arguments?: Record<string, string>;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface GetPromptResult extends WithMeta {
  description?: string;
  messages: PromptMessage[];
  /** mcp-bash (1.x §7.1): the rendered text, as in the one message. */
  text?: string;
  /** mcp-bash (1.x §7.1): the request's arguments, echoed (`{}` when none). */
  arguments?: unknown;
  /** mcp-bash (1.x §7.1): the prompt's `metadata`, when it has one. */
  metadata?: unknown;
}

// ---------------------------------------------------------------- completion

export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompleteParams extends WithMeta {
  ref: CompletionReference;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

export interface CompleteResult extends WithMeta {
  /** `nextCursor` is an mcp-bash extension (1.x's completion paging). */
  completion: { values: string[]; total?: number; hasMore?: boolean; nextCursor?: string };
}

// ---------------------------------------------------------------- roots & elicitation

export interface Root {
  uri: string;
  name?: string;
}

export interface ListRootsResult extends WithMeta {
  roots: Root[];
}

export interface ElicitFormParams extends WithMeta {
  mode?: 'form';
  message: string;
  requestedSchema: JsonObject;
}

export interface ElicitUrlParams extends WithMeta {
  mode: 'url';
  message: string;
  url: string;
  elicitationId: string;
}

export type ElicitParams = ElicitFormParams | ElicitUrlParams;

export interface ElicitResult extends WithMeta {
  action: 'accept' | 'decline' | 'cancel';
  content?: JsonObject;
}
