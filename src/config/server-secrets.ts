/**
 * Variables holding secrets of the server itself: MCPBASH_REMOTE_TOKEN (the remote-token
 * guard) and MCPBASH_HTTP_TOKEN (the bearer token of `serve --http`). They authenticate clients to
 * the server; no tool, provider or hook needs them, so none ever gets them, in any
 * environment mode (not even `inherit`, nor when an allowlist names them).
 */
const SERVER_SECRET_VARIABLES: readonly string[] = ['MCPBASH_REMOTE_TOKEN', 'MCPBASH_HTTP_TOKEN'];

/** A copy of `env` without the server's secrets. */
export function withoutServerSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of SERVER_SECRET_VARIABLES) delete copy[name];
  return copy;
}
