/**
 * A minimal MCP Apps host for browser tests: an HTTP server on 127.0.0.1 with the host page
 * (`/host`), the views it frames (`/view/<id>`, served from `localhost`: another origin, with
 * the CSP the spec builds from `_meta.ui.csp`) and `/rpc`, where the page forwards a view's
 * `tools/call` to the real server. The page answers the handshake, hands the view the tool's
 * input and result, and reports every message through the CDP binding `hostEvent`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `_meta.ui.csp` of a UI resource (MCP Apps `McpUiResourceCsp`). */
export interface ViewCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The Content-Security-Policy MCP Apps hosts build for a view (SEP-1865, "CSP Construction"). */
function viewCsp(csp: ViewCsp = {}): string {
  const list = (values: string[] | undefined) => (values ?? []).join(' ');
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${list(csp.connectDomains)}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains) || "'self'"}`,
  ].join('; ');
}

const HOST_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title>
<style>body { margin: 0; padding: 12px; font: 14px system-ui; background: #ddd; }
iframe { display: block; width: 760px; height: 120px; border: 0; background: #fff; }</style>
</head><body><div id="views"></div>
<script>
var state = { frame: null, setup: null };
function report(kind, data) { if (window.hostEvent) window.hostEvent(JSON.stringify({ kind: kind, data: data })); }
function post(message) { report('toView', message); state.frame.contentWindow.postMessage(message, '*'); }
function answer(id, result) { post({ jsonrpc: '2.0', id: id, result: result }); }
function fail(id, code, message) { post({ jsonrpc: '2.0', id: id, error: { code: code, message: message } }); }
window.mountView = function (url, setup) {
  state.setup = setup;
  var frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-forms');
  frame.src = url;
  state.frame = frame;
  document.getElementById('views').appendChild(frame);
};
window.addEventListener('message', function (event) {
  if (!state.frame || event.source !== state.frame.contentWindow) return;
  var m = event.data;
  report('fromView', m);
  if (!m || m.jsonrpc !== '2.0' || typeof m.method !== 'string') return;
  if (m.method === 'ui/initialize') {
    answer(m.id, { protocolVersion: '2026-01-26', hostInfo: { name: 'mcp-bash test host', version: '1.0.0' },
      hostCapabilities: { serverTools: {}, logging: {}, updateModelContext: { text: {} } },
      hostContext: state.setup.hostContext });
  } else if (m.method === 'ui/notifications/initialized') {
    post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: state.setup.toolInput } });
    post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: state.setup.toolResult });
  } else if (m.method === 'ui/notifications/size-changed') {
    state.frame.style.height = Math.min(Math.max(m.params.height, 60), 1200) + 'px';
  } else if (m.method === 'tools/call') {
    fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(m.params) })
      .then(function (response) { return response.json(); })
      .then(function (body) {
        if (body.error) fail(m.id, body.error.code || -32603, body.error.message);
        else answer(m.id, body.result);
      })
      .catch(function (error) { fail(m.id, -32603, String(error)); });
  } else if (m.method === 'ui/update-model-context' || m.method === 'ui/message') {
    answer(m.id, {});
  } else if (m.id !== undefined && m.id !== null) {
    fail(m.id, -32601, 'Method not found: ' + m.method);
  }
});
</script></body></html>`;

/** Forwards a view's tools/call (params) to the server under test. */
export type ToolCaller = (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>;

export class McpAppsHost {
  private server: Server | undefined;
  private readonly views = new Map<string, { html: string; csp: string }>();
  /** Every path requested, in order (only the host, views and /rpc are expected). */
  readonly requests: string[] = [];

  constructor(private readonly callTool: ToolCaller) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    if (!this.server) throw new Error('the host is not started');
    return (this.server.address() as AddressInfo).port;
  }

  get hostUrl(): string {
    return `http://127.0.0.1:${this.port}/host`;
  }

  /** Registers a view's HTML (from resources/read); its URL is on the other origin. */
  addView(id: string, html: string, csp: ViewCsp | undefined): string {
    this.views.set(id, { html, csp: viewCsp(csp) });
    return `http://localhost:${this.port}/view/${id}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? '/';
    this.requests.push(path);
    if (path === '/host') return this.reply(response, 200, 'text/html', HOST_PAGE);
    const view = path.startsWith('/view/') ? this.views.get(path.slice('/view/'.length)) : undefined;
    if (view) {
      response.setHeader('content-security-policy', view.csp);
      return this.reply(response, 200, 'text/html', view.html);
    }
    if (path === '/rpc' && request.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      try {
        const result = await this.callTool(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        return this.reply(response, 200, 'application/json', JSON.stringify({ result }));
      } catch (error) {
        const { code, message } = error as { code?: number; message: string };
        return this.reply(response, 200, 'application/json', JSON.stringify({ error: { code, message } }));
      }
    }
    return this.reply(response, 404, 'text/plain', 'not found');
  }

  private reply(response: ServerResponse, status: number, type: string, body: string): void {
    response.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
    response.end(body);
  }

  /** Stops the server, dropping the browser's keep-alive connections. */
  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
