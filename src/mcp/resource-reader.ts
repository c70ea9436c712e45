import { classifyContent, isTextMime } from '../content/mime.js';
import type { ProjectRegistries } from '../project/project-registries.js';
import { providerForUri } from '../project/resources/provider-names.js';
import { uriPathForMime } from '../project/resources/resource-definition.js';
import { matchTemplate } from '../project/resources/template-match.js';
import { readUiResource } from '../project/ui/ui-content.js';
import { findUiResource } from '../project/ui/ui-lookup.js';
import { UI_MIME_TYPE, type UiResourceDefinition } from '../project/ui/ui-resource.js';
import { isUiUri } from '../project/ui/ui-uri.js';
import { type ProviderHost, readWithProvider } from '../providers/resource-provider.js';
import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';
import type { ReadResourceParams, ResourceContents } from '../spec/types.js';

/** `resources/read` and `resources/subscribe`: a URI, or a registered name (an mcp-bash extension), or both. */
export interface ResourceRequest extends Partial<ReadResourceParams> {
  readonly name?: string;
  /** `params.timeoutSecs` (original-behaviour §2.13) when it is a positive number; else the method's default. */
  readonly timeoutSecs?: number;
}

/** A read request resolved to what serves it. */
export interface ResolvedResource {
  readonly uri: string;
  readonly provider: string;
  readonly mimeType?: string;
  /** The registry entry's name, when the URI belongs to one. */
  readonly name?: string;
  /** A UI resource (MCP Apps): served in this process, no provider. */
  readonly ui?: UiResourceDefinition;
}

export interface ReadOptions {
  /** 0 means no timeout. */
  readonly timeoutSecs: number;
  readonly signal?: AbortSignal;
}

/**
 * resources/read and subscriptions (original-behaviour §6.1): finds what serves a URI or a
 * registered name, runs its provider, and turns the bytes into MCP resource contents.
 */
export class ResourceReader {
  constructor(
    private readonly registries: ProjectRegistries,
    private readonly host: ProviderHost,
    /** MCPBASH_MAX_UI_RESOURCE_BYTES */
    private readonly maxUiResourceBytes: number,
  ) {}

  /**
   * `params.uri` (standard) and/or `params.name` (non-standard): the entry of that name
   * (read at the given URI when there is one), else the entry with that URI, else the URI
   * itself - provider and MIME hint from the template it matches, or from its scheme.
   */
  async resolve(request: ResourceRequest): Promise<ResolvedResource> {
    const { uri, name } = request;
    const { items } = await this.registries.resources.snapshot();
    const byName = name === undefined ? undefined : items.find((item) => item.name === name);
    const ui = await this.resolveUi(uri, byName === undefined ? name : undefined);
    if (ui) return ui;
    if (name !== undefined && !byName && uri === undefined) {
      throw new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', {
        name,
        hint: 'resources/list shows the names',
      });
    }
    const entry = byName ?? items.find((item) => item.uri === uri);
    if (entry)
      return {
        uri: uri ?? entry.uri,
        provider: entry.provider,
        name: entry.name,
        ...(entry.mimeType ? { mimeType: entry.mimeType } : {}),
      };
    const target = uri as string;
    const template = matchTemplate(target, (await this.registries.resourceTemplates.snapshot()).items);
    return {
      uri: target,
      provider: template?.provider ?? providerForUri(target),
      ...(template?.mimeType ? { mimeType: template.mimeType } : {}),
    };
  }

  /**
   * A `ui://` URI, or a name no resource has, that belongs to a UI resource; an unknown
   * `ui://` URI is not found (no provider serves that scheme).
   */
  private async resolveUi(uri: string | undefined, name: string | undefined): Promise<ResolvedResource | undefined> {
    const byUri = uri !== undefined && isUiUri(uri);
    if (!byUri && (uri !== undefined || name === undefined)) return undefined;
    const { items } = await this.registries.ui.snapshot();
    const item = byUri ? findUiResource(items, uri) : items.find((candidate) => candidate.name === name);
    if (item) return { uri: uri ?? item.uri, provider: 'ui', name: item.name, mimeType: UI_MIME_TYPE, ui: item };
    if (!byUri) return undefined;
    throw new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', {
      uri,
      hint: 'resources/list shows the ui:// URIs of the UI resources',
    });
  }

  /** Runs the provider; text when the MIME type is textual and the bytes are UTF-8, else a base64 blob. */
  async read(target: ResolvedResource, options: ReadOptions): Promise<{ contents: ResourceContents; bytes: Buffer }> {
    if (target.ui) return readUiResource(target.ui, target.uri, this.host.layout, this.maxUiResourceBytes);
    const bytes = await readWithProvider(this.host, {
      provider: target.provider,
      uri: target.uri,
      timeoutSecs: options.timeoutSecs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const classified = classifyContent(bytes, target.mimeType, uriPathForMime(target.uri));
    const { binary } = classified;
    // The registry's type is a hint that content refines, as 1.x's `file --mime` did: bytes
    // that are not text are not text/plain (discovery's default for unknown types).
    const mimeType = binary && isTextMime(classified.mimeType) ? 'application/octet-stream' : classified.mimeType;
    const contents: ResourceContents = binary
      ? { uri: target.uri, mimeType, blob: bytes.toString('base64') }
      : { uri: target.uri, mimeType, text: bytes.toString('utf8') };
    return { contents, bytes };
  }
}
