/**
 * Every JSON-RPC error code mcp-bash puts on the wire, in one place. The first five are
 * JSON-RPC 2.0's own; the others are in its server-defined range and are a contract of
 * mcp-bash 1.x that clients and tests rely on. Tools and policy hooks may choose any other
 * integer (`mcp_fail CODE`).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** A request other than initialize/ping arrived before `notifications/initialized`. */
  ServerNotInitialized: -32000,
  /**
   * A cancelled tool: internal on stdio (the response is suppressed). The same number is the
   * HTTP transport's "session not found" (SESSION_NOT_FOUND in http-replies, D223).
   */
  ToolCancelled: -32001,
  ResourceNotFound: -32002,
  /** New work after `shutdown`, or any request while `serve --http` drains (D223). */
  ServerShuttingDown: -32003,
  /** An `exit` request before `shutdown`. */
  ShutdownNotRequested: -32005,
  /**
   * MCP 2025-11-25's URLElicitationRequiredError: the call needs the user to visit a URL the
   * client cannot show as an elicitation (D296); `data.elicitations` lists them.
   */
  UrlElicitationRequired: -32042,
} as const;
