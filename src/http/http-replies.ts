import { type ServerResponse, STATUS_CODES } from 'node:http';

/** Headers every answer from the MCP endpoint may carry (CORS for allowed browser origins). */
export type ExtraHeaders = Readonly<Record<string, string>>;

/** A refusal at the HTTP level: the status and the JSON-RPC error carried in the body. */
export interface Refusal {
  readonly status: number;
  /** The JSON-RPC code of the body (-32000 for transport-level refusals, as the SDK uses). */
  readonly code: number;
  readonly message: string;
  readonly headers?: ExtraHeaders;
}

/** JSON-RPC's code for errors of the transport itself (the official SDK uses it too). */
const TRANSPORT_ERROR = -32000;

/** The code of the 404 for an unknown or ended session, as the official SDK answers it (D223). */
export const SESSION_NOT_FOUND = -32001;

export function refusal(status: number, message: string, headers?: ExtraHeaders, code = TRANSPORT_ERROR): Refusal {
  return { status, code, message, ...(headers ? { headers } : {}) };
}

/**
 * Answers with `status` and a JSON-RPC error without a request id (`"id": null`, as
 * JSON-RPC writes an unknown id, D20); the spec allows such a body on every refusal.
 */
export function sendRefusal(res: ServerResponse, refused: Refusal, extra: ExtraHeaders = {}): void {
  sendJson(res, refused.status, refusalBody(refused), { ...extra, ...refused.headers });
}

function refusalBody(refused: Refusal): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code: refused.code, message: refused.message }, id: null });
}

/**
 * A refusal as the raw bytes of a whole HTTP response that closes the connection: for
 * requests node:http turns away before there is a response object to answer on.
 */
export function rawRefusal(refused: Refusal): string {
  const body = refusalBody(refused);
  return [
    `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status] ?? ''}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** One JSON body (already serialised). */
export function sendJson(res: ServerResponse, status: number, json: string, headers: ExtraHeaders = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
  });
  res.end(json);
}

/** A status without a body (202 Accepted, 204, 405 with Allow, ...). */
export function sendEmpty(res: ServerResponse, status: number, headers: ExtraHeaders = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...headers, 'Content-Length': 0 });
  res.end();
}
