import { fileURLToPath } from 'node:url';
import { canonicalRoot, type RootEntry, rootEntry } from '../../project/roots.js';
import { ignoreParams } from '../params-reader.js';
import type { HandlerModule } from '../server-context.js';

/**
 * The local path of a client root: `file://` URIs only, with an empty or `localhost`
 * authority, percent-decoded (so paths with spaces work).
 */
function pathFromRootUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || !uri.startsWith('file:')) return undefined;
  try {
    const url = new URL(uri);
    if (url.hostname !== '' && url.hostname !== 'localhost') return undefined;
    url.hostname = '';
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}

/**
 * A `roots/list` answer as roots tools can use: existing, readable, canonical paths, each
 * once. Undefined when the answer is malformed (the previous roots are kept).
 */
function rootsFromResult(result: unknown, warn: (message: string) => void): RootEntry[] | undefined {
  const list = (result as { roots?: unknown } | undefined)?.roots;
  if (!Array.isArray(list)) return undefined;
  const roots: RootEntry[] = [];
  for (const item of list) {
    const { uri, name } = (item ?? {}) as { uri?: unknown; name?: unknown };
    const path = pathFromRootUri(uri);
    const canonical = path === undefined ? undefined : canonicalRoot(path);
    if (!canonical) {
      warn(`client root ${JSON.stringify(uri)} is not a readable local path; ignored`);
      continue;
    }
    if (roots.some((root) => root.path === canonical)) continue;
    roots.push(rootEntry(canonical, typeof name === 'string' ? name : undefined));
  }
  return roots;
}

/**
 * Client roots: asked for after `initialized` when the client declared `roots`, and again
 * (debounced) on `notifications/roots/list_changed`. An answer replaces the fallback roots;
 * an error, a timeout or a malformed answer keeps what we had. Only the latest request's
 * answer counts: once list_changed arrives, an answer to an earlier request is stale (even
 * during the debounce, before the new request is sent) and is dropped.
 */
export const rootsModule: HandlerModule = {
  name: 'roots',
  register(context) {
    const { session, roots, log } = context;
    const timeoutMs = context.config.rootsRequestTimeoutMs;
    const debounceMs = context.config.rootsDebounceMs;
    let generation = 0;
    let debounce: NodeJS.Timeout | undefined;

    const refresh = async () => {
      generation += 1;
      const mine = generation;
      roots.beginUpdate();
      try {
        const result = await context.engine.request('roots/list', undefined, { timeoutMs });
        if (mine !== generation) return;
        const fresh = rootsFromResult(result, (message) => log.warning('mcp.roots', message));
        if (!fresh)
          log.warning('mcp.roots', 'the client answered roots/list without a roots array; keeping the current roots');
        else log.debug('mcp.roots', `roots: ${fresh.map((root) => root.path).join(', ') || '(none)'}`);
        roots.finishUpdate(fresh);
      } catch (error) {
        if (mine !== generation) return;
        log.info('mcp.roots', `roots/list failed (${(error as Error).message}); keeping the current roots`);
        roots.finishUpdate();
      }
    };

    context.methods.notification('notifications/roots/list_changed', ignoreParams, () => {
      if (!session.isReady || !session.clientCapabilities.roots) return;
      // Outdates the request in flight now, so its answer cannot release waiting tool calls.
      generation += 1;
      clearTimeout(debounce);
      roots.beginUpdate();
      debounce = setTimeout(() => void refresh(), debounceMs);
    });
    return {
      // Requests right behind `initialized` wait for the client's roots, not the fallback ones.
      onInitialized: () => {
        if (session.clientCapabilities.roots) roots.beginUpdate();
      },
      onReady: () => {
        if (session.clientCapabilities.roots) void refresh();
      },
      onStop: () => {
        clearTimeout(debounce);
        // No answer can come any more (input ended, or the server stops before asking):
        // calls waiting for the client's roots go on with the ones they have.
        generation += 1;
        roots.finishUpdate();
      },
    };
  },
};
