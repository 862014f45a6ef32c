// The Streamable HTTP face of the MCP server at /api/mcp, stateless: any instance behind a load
// balancer can answer any request. One POST is read once, then in order: Host and Origin checked
// against our own addresses (DNS-rebinding protection for local installs), the era told from the
// body (2026-07-28 carries its version in every request's `_meta`; the 2025-era versions do not),
// malformed 2025-era bodies refused, the caller admitted (every call counts against the caller's
// one rate-limit budget, a batch's each), then served: 2026-07-28 by the SDK's handler, the 2025-era
// versions by ./legacy-serving.ts, both from the same pooled server definition.
import type { Express, Request, RequestHandler, Response } from 'express';
import { classifyInboundRequest, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { AppDeps } from '../deps.ts';
import { requestHostname } from '../platform/http/addresses.ts';
import { toErrorResponse } from '../platform/errors.ts';
import { admitRequest } from '../access/middleware.ts';
import { createMcpServer } from './server.ts';
import { createServerPool } from './server-pool.ts';
import { legacyServing } from './legacy-serving.ts';
import { logMcpCall } from './access-log.ts';
import { authInfoFor, type McpCaller } from './request-caller.ts';
import { followChangeNotices } from './change-notices.ts';
import { callCount, jsonRpcBody, jsonRpcError, readableId, refusal, sendRefusal } from './json-rpc-errors.ts';
import { MCP_PATH } from './endpoint-path.ts';

/** Hostnames and origins that may reach the MCP endpoint. */
export function allowedAddresses(deps: AppDeps): { hosts: Set<string>; origins: Set<string> } {
  const base = new URL(deps.config.baseUrl);
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]', base.hostname.toLowerCase(), deps.config.API_HOST.toLowerCase()]);
  const origins = new Set([base.origin]);
  return { hosts, origins };
}

/** Refuses foreign Host and Origin headers with 403, naming the request's id when the body had one. */
function guardAddresses(deps: AppDeps): RequestHandler {
  const { hosts, origins } = allowedAddresses(deps);
  return (req, res, next) => {
    const id = readableId(req.body);
    if (!hosts.has(requestHostname(req))) {
      res.status(403).json(jsonRpcError(-32000, `Host ${req.headers.host ?? '(none)'} is not allowed for ${MCP_PATH}.`, id));
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin) && !/^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin)) {
      res.status(403).json(jsonRpcError(-32000, `Origin ${origin} is not allowed for ${MCP_PATH}.`, id));
      return;
    }
    next();
  };
}

const header = (req: Request, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Whether the body is a 2025-era message (or batch): the SDK's own classification, from the body read once. */
function isLegacy(req: Request): boolean {
  return (
    classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: header(req, 'mcp-protocol-version'),
      mcpMethodHeader: header(req, 'mcp-method'),
      mcpNameHeader: header(req, 'mcp-name'),
      body: req.body,
    }).kind === 'legacy'
  );
}

/** The MCP endpoint, as the app and its tests see it. */
export interface McpEndpoint {
  /** Server instances built so far (each is reused: at most as many as requests served at once). */
  readonly built: number;
  /** At shutdown: ends open subscription streams with their closing result. */
  close(): Promise<void>;
}

export function registerMcpRoutes(app: Express, deps: AppDeps): McpEndpoint {
  const pool = createServerPool((era) => createMcpServer(deps, { era }));
  const onerror = (error: Error) => deps.logger.debug({ err: error }, 'mcp request refused or failed');
  const modern = createMcpHandler(({ era }) => pool.acquire(era), { legacy: 'reject', onerror });
  const notices = followChangeNotices(deps, modern.notify);
  const adapterOptions = { onerror: (error: Error) => deps.logger.error({ err: error }, 'mcp request failed') };
  const serveModern = toNodeHandler(modern, adapterOptions);
  const serveLegacy = toNodeHandler({ fetch: legacyServing(pool) }, adapterOptions);

  app.post(MCP_PATH, jsonRpcBody, guardAddresses(deps), async (req, res) => {
    logMcpCall(res, req.body);
    const legacyRequest = isLegacy(req);
    const refused = legacyRequest ? refusal(req.body, header(req, 'mcp-protocol-version')) : undefined;
    if (refused) {
      sendRefusal(res, refused);
      return;
    }
    let caller: McpCaller;
    try {
      caller = await admit(deps, req, res);
    } catch (error) {
      const { body, headers } = toErrorResponse(error);
      res
        .status(body.status)
        .set(headers)
        .json(jsonRpcError(-32001, body.error, readableId(req.body)));
      return;
    }
    (req as Request & { auth?: unknown }).auth = authInfoFor(caller);
    if (legacyRequest) {
      await serveLegacy(req, res, req.body);
      return;
    }
    notices.follow(req.body, res);
    await serveModern(req, res, req.body);
  });
  // Stateless: no server-initiated stream to GET and no session to DELETE.
  app.all(MCP_PATH, guardAddresses(deps), (_req, res) => {
    res.status(405).set('Allow', 'POST').json(jsonRpcError(-32000, 'Method not allowed: this MCP server is stateless; send POST.'));
  });
  return {
    get built() {
      return pool.built;
    },
    close: () => modern.close(),
  };
}

/**
 * The caller behind an MCP request: a key in any of the four forms, or anonymous. An invalid key is
 * refused whatever the method; every call counts against the same limits as REST requests.
 */
async function admit(deps: AppDeps, req: Request, res: Response): Promise<McpCaller> {
  const identity = await admitRequest(deps, req, res, { count: callCount(req.body) });
  return identity.kind === 'key' ? { kind: 'key', keyId: identity.keyId, accountId: identity.accountId } : { kind: 'anonymous' };
}
