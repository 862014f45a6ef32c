// The Streamable HTTP face of the MCP server at /api/mcp, stateless: every POST gets a fresh server
// and transport, so any instance behind a load balancer can answer any request. Host and Origin are
// checked against our own addresses (DNS-rebinding protection for local installs).
import type { Express, Request, RequestHandler, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AppDeps } from '../deps.ts';
import { requestHostname } from '../platform/http/addresses.ts';
import { createMcpServer } from './server.ts';
import { logMcpCall } from './access-log.ts';
import type { McpCaller } from './tool-kit.ts';
import { toErrorResponse } from '../platform/errors.ts';
import { admitRequest } from '../access/middleware.ts';
import { jsonRpcBody, jsonRpcError, refusal, sendRefusal } from './json-rpc-errors.ts';

export const MCP_PATH = '/api/mcp';

/** Hostnames and origins that may reach the MCP endpoint. */
export function allowedAddresses(deps: AppDeps): { hosts: Set<string>; origins: Set<string> } {
  const base = new URL(deps.config.baseUrl);
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]', base.hostname.toLowerCase(), deps.config.API_HOST.toLowerCase()]);
  const origins = new Set([base.origin]);
  return { hosts, origins };
}

function guardAddresses(deps: AppDeps): RequestHandler {
  const { hosts, origins } = allowedAddresses(deps);
  return (req, res, next) => {
    if (!hosts.has(requestHostname(req))) {
      res.status(403).json(jsonRpcError(-32000, `Host ${req.headers.host ?? '(none)'} is not allowed for ${MCP_PATH}.`));
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin) && !/^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin)) {
      res.status(403).json(jsonRpcError(-32000, `Origin ${origin} is not allowed for ${MCP_PATH}.`));
      return;
    }
    next();
  };
}

/** JSON when the client lists application/json before text/event-stream in Accept, else SSE. */
export function prefersJson(req: Request): boolean {
  const accept = (req.headers.accept ?? '').toLowerCase();
  const json = accept.indexOf('application/json');
  const sse = accept.indexOf('text/event-stream');
  return json !== -1 && (sse === -1 || json < sse);
}

/** Whether a JSON-RPC message calls a tool: only tool calls count against rate limits (batches are refused before). */
export function callsTool(body: unknown): boolean {
  return (body as { method?: unknown } | null)?.method === 'tools/call';
}

/**
 * The caller behind an MCP request: a key in any of the four forms, or anonymous. An invalid key is
 * refused whatever the tool; tool calls count against the same limits as REST requests.
 */
async function admit(deps: AppDeps, req: Request, res: Response): Promise<McpCaller> {
  const identity = await admitRequest(deps, req, res, { count: callsTool(req.body) });
  return identity.kind === 'key' ? { kind: 'key', keyId: identity.keyId, accountId: identity.accountId } : { kind: 'anonymous' };
}

export function registerMcpRoutes(app: Express, deps: AppDeps): void {
  app.post(MCP_PATH, guardAddresses(deps), jsonRpcBody, async (req, res) => {
    logMcpCall(res, req.body);
    // Not JSON-RPC, a batch, or params of the wrong shape: refused before the key is even looked up.
    const refused = refusal(req.body);
    if (refused) {
      sendRefusal(res, refused);
      return;
    }
    let caller: McpCaller;
    try {
      caller = await admit(deps, req, res);
    } catch (error) {
      const { body, headers } = toErrorResponse(error);
      res.status(body.status).set(headers).json(jsonRpcError(-32001, body.error));
      return;
    }
    const server = createMcpServer(deps, caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: prefersJson(req) });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      deps.logger.error({ err: error, requestId: req.id }, 'mcp request failed');
      if (!res.headersSent) res.status(500).json(jsonRpcError(-32603, 'Internal error.'));
    }
  });
  // Stateless: no server-initiated stream to GET and no session to DELETE.
  app.all(MCP_PATH, guardAddresses(deps), (_req, res) => {
    res.status(405).set('Allow', 'POST').json(jsonRpcError(-32000, 'Method not allowed: this MCP server is stateless; send POST.'));
  });
}
