import { ProjectError } from '../project-error.js';
import type { UiResourceDefinition } from './ui-resource.js';
import { isUiUri, parseUiUri, uiResourceUri } from './ui-uri.js';

/**
 * The UI resource a `ui://` URI names: its exact URI, or 1.x's short form `ui://<name>`.
 * A URI that tries to leave a UI directory is refused (-32602); an unknown one is
 * undefined. Not a `ui://` URI: undefined.
 */
export function findUiResource(items: readonly UiResourceDefinition[], uri: string): UiResourceDefinition | undefined {
  if (!isUiUri(uri)) return undefined;
  const exact = items.find((item) => item.uri === uri);
  if (exact) return exact;
  const parsed = parseUiUri(uri);
  if (!parsed.ok)
    throw ProjectError.invalidRequest(`Invalid UI resource URI: ${parsed.reason}`, {
      uri,
      hint: 'resources/list shows the ui:// URIs',
    });
  return items.find(
    (item) =>
      item.name === parsed.name &&
      (parsed.server === undefined || item.uri === uiResourceUri(parsed.server, parsed.name)),
  );
}
