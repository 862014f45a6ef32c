// The 2025-era protocol versions (2024-11-05 … 2025-11-25, an `initialize` handshake) served without
// sessions: each POST is answered by an instance from the pool (./server-pool.ts) connected to a
// transport of its own for that exchange, as the SDK's stateless idiom does, with what that idiom
// leaves out for us:
// - JSON when the client lists application/json before text/event-stream in Accept, else SSE;
// - a resource that does not exist is -32002 on this wire (the 2025-11-25 specification; the SDK
//   answers -32602, which 2026-07-28 asks for);
// - a refusal of the transport (406 without the right Accept, 400 for an unsupported
//   MCP-Protocol-Version) names the request's id when it was readable.
import { WebStandardStreamableHTTPServerTransport, type JSONRPCMessage, type McpHandlerRequestOptions } from '@modelcontextprotocol/server';
import type { ServerPool } from './server-pool.ts';
import { readableId } from './json-rpc-errors.ts';

/** JSON when the client lists application/json before text/event-stream in Accept, else SSE. */
export function prefersJson(accept: string | null | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  const json = value.indexOf('application/json');
  const sse = value.indexOf('text/event-stream');
  return json !== -1 && (sse === -1 || json < sse);
}

/** The SDK's resource-not-found error (-32602 whose data is exactly `{uri}`) as the 2025-era code. */
export function onLegacyWire(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code?: unknown; data?: unknown } }).error;
  const data = error?.data as Record<string, unknown> | undefined;
  if (error?.code !== -32602 || data === undefined || typeof data.uri !== 'string' || Object.keys(data).length !== 1) return message;
  return { ...message, error: { ...(error as object), code: -32002 } } as JSONRPCMessage;
}

/** A transport refusal (`"id": null`) answered with the request's id instead, when it had one. */
async function withRequestId(response: Response, body: unknown): Promise<Response> {
  const id = readableId(body);
  if (response.ok || id === null || !(response.headers.get('content-type') ?? '').includes('application/json')) return response;
  const answer = (await response.json()) as { id?: unknown };
  return Response.json({ ...answer, id: answer.id ?? id }, { status: response.status, headers: response.headers });
}

/** A streamed body that runs `done` once it ends or the client goes away. */
function endingWith(response: Response, done: () => void): Response {
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason).catch(() => undefined);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Serves one 2025-era POST (`options.parsedBody` is the parsed JSON-RPC message or batch). */
export function legacyServing(pool: ServerPool): (request: Request, options?: McpHandlerRequestOptions) => Promise<Response> {
  return async (request, options = {}) => {
    const server = pool.acquire('legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: prefersJson(request.headers.get('accept')),
    });
    const send = transport.send.bind(transport);
    transport.send = (message, sendOptions) => send(onLegacyWire(message), sendOptions);
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      void server.close();
    };
    try {
      await server.connect(transport);
      request.signal.addEventListener('abort', finish, { once: true });
      const response = await transport.handleRequest(request, options);
      if (response.body === null || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        finish();
        return await withRequestId(response, options.parsedBody);
      }
      return endingWith(response, finish);
    } catch (error) {
      finish();
      throw error;
    }
  };
}
