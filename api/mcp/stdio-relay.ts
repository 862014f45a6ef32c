// `npm run mcp:stdio` beside a running server that holds the embedded database: every JSON-RPC
// message read from stdin is POSTed to that server's /api/mcp and its answer written to stdout, so a
// desktop client gets the same tools, with the same rate limits and key, as over HTTP, at either
// protocol era. An SSE answer is relayed message by message (a 2026-07-28 subscription stream until
// the client cancels it).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { MCP_PATH } from './endpoint-path.ts';

/** The MCP endpoint answers within seconds; an HMDA query has its own 10 s limit. */
const REQUEST_TIMEOUT_MS = 60_000;

function errorResponse(id: RequestId, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: -32000, message } };
}

/** The message of a JSON-RPC error body (the endpoint's 4xx answers), or undefined. */
function errorMessageOf(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : undefined;
}

export interface StdioRelay {
  /** Resolves when stdin has ended and every message in flight has been answered. */
  finished: Promise<void>;
}

/** The headers of one relayed message: a 2026-07-28 request names its version, method and target as that version asks. */
function headersFor(message: JSONRPCMessage, negotiated: string | undefined, apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (apiKey) headers['x-api-key'] = apiKey;
  const { method, params } = message as { method?: string; params?: { _meta?: Record<string, unknown>; name?: unknown; uri?: unknown } };
  const modern = params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (typeof modern === 'string' && method !== undefined) {
    headers['mcp-protocol-version'] = modern;
    headers['mcp-method'] = method;
    const name = params?.name ?? params?.uri;
    if (typeof name === 'string') headers['mcp-name'] = name;
  } else if (negotiated !== undefined) headers['mcp-protocol-version'] = negotiated;
  return headers;
}

/** Relays stdin/stdout to `${baseUrl}/api/mcp`; `apiKey` travels as X-API-Key. */
export async function relayStdioToServer(baseUrl: string, apiKey: string | undefined): Promise<StdioRelay> {
  const endpoint = new URL(MCP_PATH, baseUrl);
  const local = new StdioServerTransport();
  const inFlight = new Set<Promise<void>>();
  /** Requests in flight, to end one the client cancels (a subscriptions/listen stream above all). */
  const open = new Map<RequestId, AbortController>();
  let protocolVersion: string | undefined;

  async function answerWith(answer: JSONRPCMessage, message: JSONRPCMessage): Promise<void> {
    const version = (answer as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (isInitializeRequest(message) && typeof version === 'string') protocolVersion = version;
    await local.send(answer);
  }

  /** An SSE answer, message by message as it comes (a subscription stream lasts until it is cancelled). */
  async function relayStream(response: Response, message: JSONRPCMessage): Promise<void> {
    const events = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    for await (const event of events) if (event.data !== '') await answerWith(JSON.parse(event.data) as JSONRPCMessage, message);
  }

  async function forward(message: JSONRPCMessage): Promise<void> {
    const id = isJSONRPCRequest(message) ? message.id : undefined;
    const { method, params } = message as { method?: string; params?: { requestId?: RequestId } };
    if (method === 'notifications/cancelled' && params?.requestId !== undefined) open.get(params.requestId)?.abort();
    const controller = new AbortController();
    if (id !== undefined) open.set(id, controller);
    const listens = method === 'subscriptions/listen';
    const signal = listens ? controller.signal : AbortSignal.any([controller.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: headersFor(message, protocolVersion, apiKey),
        body: JSON.stringify(message),
        signal,
      });
      if (id === undefined) {
        await response.body?.cancel();
        return;
      }
      if (response.ok && (response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        await relayStream(response, message);
        return;
      }
      await relayJson(response, message, id);
    } catch (error) {
      if (id !== undefined && !controller.signal.aborted)
        await local.send(errorResponse(id, `The server at ${baseUrl} did not answer (${(error as Error).message}).`));
    } finally {
      if (id !== undefined) open.delete(id);
    }
  }

  async function relayJson(response: Response, message: JSONRPCMessage, id: RequestId): Promise<void> {
    const text = await response.text();
    if (text === '') return;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      await local.send(errorResponse(id, `The server at ${baseUrl} answered ${response.status} without JSON.`));
      return;
    }
    if (!response.ok) {
      // A refusal keeps its code (a 2026-07-28 client renegotiates on -32022) and gets this request's id.
      const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      if (typeof error?.code === 'number' && typeof error.message === 'string')
        await local.send({ ...(body as object), id } as JSONRPCMessage);
      else await local.send(errorResponse(id, errorMessageOf(body) ?? `The server at ${baseUrl} answered ${response.status}.`));
      return;
    }
    for (const answer of (Array.isArray(body) ? body : [body]) as JSONRPCMessage[]) await answerWith(answer, message);
  }

  local.onmessage = (message) => {
    const task = forward(message).finally(() => inFlight.delete(task));
    inFlight.add(task);
  };
  // An unreadable line is dropped, as the in-process stdio server does; the client times it out.
  local.onerror = () => undefined;
  const finished = new Promise<void>((resolve) => {
    process.stdin.once('close', () => void Promise.allSettled([...inFlight]).then(() => resolve()));
  });
  await local.start();
  return { finished };
}

/** Whether a server answers at `baseUrl` (its /healthz), within `timeoutMs`. */
export async function serverAnswers(baseUrl: string, timeoutMs = 3_000): Promise<boolean> {
  try {
    const response = await fetch(new URL('/healthz', baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
