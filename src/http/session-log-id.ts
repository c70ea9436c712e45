/**
 * A session id as the logs show it: its first 8 characters. The id is the session's only
 * credential when no token is set, and logs are read by more people than the client.
 */
export function sessionLogId(id: string | undefined): string {
  return id === undefined ? '(none)' : `${id.slice(0, 8)}…`;
}
