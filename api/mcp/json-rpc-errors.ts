// JSON-RPC errors for malformed MCP requests, answered before the SDK sees them, so every refusal a
// client gets on /api/mcp is a JSON-RPC error it can read: -32700 for a body that is not JSON, -32600
// for one that is not a JSON-RPC message (or is a batch, or is too large, deep or not JSON at all),
// -32602 for a known method whose params have the wrong shape (the SDK would answer -32603 with the
// validator's raw issue list).
import type { RequestHandler, Response } from 'express';
import { ClientRequestSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { toErrorResponse } from '../platform/errors.ts';
import { jsonBody } from '../platform/http/json-body.ts';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

type Id = string | number | null;

export function jsonRpcError(
  code: number,
  message: string,
  id: Id = null,
): { jsonrpc: '2.0'; error: { code: number; message: string }; id: Id } {
  return { jsonrpc: '2.0', error: { code, message }, id };
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

/**
 * Why the parsed body cannot be handed to the server, or undefined when it can. Batches are refused
 * whole: the MCP version this server speaks (2025-06-18) has no batching, and a batch answered call
 * by call would let one HTTP request spend one count of a rate limit on a hundred tool calls.
 */
export function refusal(body: unknown): Refusal | undefined {
  if (Array.isArray(body)) {
    return {
      status: 400,
      body: jsonRpcError(
        INVALID_REQUEST,
        'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request.',
      ),
    };
  }
  const message = JSONRPCMessageSchema.safeParse(body);
  if (!message.success) {
    return {
      status: 400,
      body: jsonRpcError(INVALID_REQUEST, `Invalid Request: not a JSON-RPC 2.0 message (${describeIssues(message.error.issues)}).`),
    };
  }
  const request = message.data as { id?: Id; method?: string };
  const schema = request.method === undefined ? undefined : requestSchemas.get(request.method);
  if (schema === undefined || request.id === undefined) return undefined;
  const checked = schema.safeParse(body);
  if (checked.success) return undefined;
  return {
    status: 200,
    body: jsonRpcError(INVALID_PARAMS, `Invalid params for ${request.method}: ${describeIssues(checked.error.issues)}.`, request.id),
  };
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
