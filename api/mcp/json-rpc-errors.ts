// JSON-RPC errors for malformed MCP requests, answered before the SDK sees them, so every refusal a
// client gets on /api/mcp is a JSON-RPC error it can read, naming the request's id whenever the
// body was readable: -32700 for a body that is not JSON, -32600 for one that is not a JSON-RPC
// message (or too large or deep, or a batch where the protocol version has none), -32602 for a
// known 2025-era method whose params have the wrong shape (the SDK would answer -32603 with the
// validator's raw issue list). The 2026-07-28 path is checked by the SDK itself.
import type { RequestHandler, Response } from 'express';
import { ClientRequestSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { toErrorResponse } from '../platform/errors.ts';
import { jsonBody } from '../platform/http/json-body.ts';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

type Id = string | number | null;

/** The only protocol version with JSON-RPC batches (2025-06-18 removed them). */
export const BATCH_VERSION = '2025-03-26';

export function jsonRpcError(
  code: number,
  message: string,
  id: Id = null,
): { jsonrpc: '2.0'; error: { code: number; message: string }; id: Id } {
  return { jsonrpc: '2.0', error: { code, message }, id };
}

/** The id of a single request when it is readable (a string or a number), else null. */
export function readableId(body: unknown): Id {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The calls a body makes: each message naming a method in it (a batch counts each), at least one. */
export function callCount(body: unknown): number {
  if (!Array.isArray(body)) return 1;
  return Math.max(1, body.filter((message) => typeof (message as { method?: unknown } | null)?.method === 'string').length);
}

/** A refusal: the HTTP status and the JSON-RPC error body. */
export interface Refusal {
  status: number;
  body: ReturnType<typeof jsonRpcError>;
}

/** The schema of each request method a client may send (the SDK's own, so they follow its version). */
const requestSchemas = new Map<string, z.ZodType>(
  (ClientRequestSchema as unknown as { options: (z.ZodType & { shape: { method: { value: string } } })[] }).options.map((schema) => [
    schema.shape.method.value,
    schema,
  ]),
);

/** "params.name: expected string, received number" for the first few issues. */
function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message.replace(/^Invalid input: /, '')}`)
    .join('; ');
}

/** Why one 2025-era message cannot be handed to the server, or undefined when it can. */
function messageRefusal(message: unknown): Refusal | undefined {
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (!parsed.success) {
    return {
      status: 400,
      body: jsonRpcError(
        INVALID_REQUEST,
        `Invalid Request: not a JSON-RPC 2.0 message (${describeIssues(parsed.error.issues)}).`,
        readableId(message),
      ),
    };
  }
  const request = parsed.data as { id?: Id; method?: string };
  const schema = request.method === undefined ? undefined : requestSchemas.get(request.method);
  if (schema === undefined || request.id === undefined) return undefined;
  const checked = schema.safeParse(message);
  if (checked.success) return undefined;
  return {
    status: 200,
    body: jsonRpcError(INVALID_PARAMS, `Invalid params for ${request.method}: ${describeIssues(checked.error.issues)}.`, request.id),
  };
}

/**
 * Why a 2025-era body cannot be handed to the server, or undefined when it can. A batch is read only
 * at 2025-03-26, the one version that has them (a request without MCP-Protocol-Version is that
 * version, as the later specifications say); each of its messages is checked as a single one is.
 */
export function refusal(body: unknown, protocolVersion: string | undefined): Refusal | undefined {
  if (!Array.isArray(body)) return messageRefusal(body);
  if (protocolVersion !== undefined && protocolVersion !== BATCH_VERSION) {
    return {
      status: 400,
      body: jsonRpcError(
        INVALID_REQUEST,
        `Invalid Request: JSON-RPC batches are part of MCP ${BATCH_VERSION} only, and this request speaks ${protocolVersion}; send one message per request.`,
      ),
    };
  }
  if (body.length === 0) return { status: 400, body: jsonRpcError(INVALID_REQUEST, 'Invalid Request: an empty batch.') };
  for (const message of body) {
    const refused = messageRefusal(message);
    if (refused !== undefined) return { status: 400, body: refused.body };
  }
  return undefined;
}

export function sendRefusal(res: Response, { status, body }: Refusal): void {
  res.status(status).setHeader('Cache-Control', 'no-store');
  res.json(body);
}

/** The JSON body parser, its refusals (not JSON, too large, too deep, wrong type) as JSON-RPC errors. */
export const jsonRpcBody: RequestHandler = (req, res, next) => {
  jsonBody(req, res, (error?: unknown) => {
    if (error === undefined || error === null || error === 'route' || error === 'router') {
      next(error as undefined);
      return;
    }
    const { body } = toErrorResponse(error);
    const parseFailed = (error as { type?: unknown }).type === 'entity.parse.failed';
    sendRefusal(res, {
      status: body.status,
      body: jsonRpcError(parseFailed ? PARSE_ERROR : INVALID_REQUEST, `${parseFailed ? 'Parse error' : 'Invalid Request'}: ${body.error}`),
    });
  });
};
