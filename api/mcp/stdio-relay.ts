// `npm run mcp:stdio` beside a running server that holds the embedded database: every JSON-RPC
// message read from stdin is POSTed to that server's /api/mcp and its answer written to stdout, so a
// desktop client gets the same tools, with the same rate limits and key, as over HTTP.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from './http.ts';

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

/** Relays stdin/stdout to `${baseUrl}/api/mcp`; `apiKey` travels as X-API-Key. */
export async function relayStdioToServer(baseUrl: string, apiKey: string | undefined): Promise<StdioRelay> {
  const endpoint = new URL(MCP_PATH, baseUrl);
  const local = new StdioServerTransport();
  const inFlight = new Set<Promise<void>>();
  let protocolVersion: string | undefined;

  async function forward(message: JSONRPCMessage): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (protocolVersion !== undefined) headers['mcp-protocol-version'] = protocolVersion;
    if (apiKey) headers['x-api-key'] = apiKey;
    const id = isJSONRPCRequest(message) ? message.id : undefined;
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      if (id !== undefined) await local.send(errorResponse(id, `The server at ${baseUrl} did not answer (${(error as Error).message}).`));
      return;
    }
    const text = await response.text();
    if (id === undefined || text === '') return;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      await local.send(errorResponse(id, `The server at ${baseUrl} answered ${response.status} without JSON.`));
      return;
    }
    if (!response.ok) {
      // The endpoint's refusals (rate limit, key, host) carry no request id: give them this one.
      await local.send(errorResponse(id, errorMessageOf(body) ?? `The server at ${baseUrl} answered ${response.status}.`));
      return;
    }
    for (const answer of (Array.isArray(body) ? body : [body]) as JSONRPCMessage[]) {
      const version = (answer as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
      if (isInitializeRequest(message) && typeof version === 'string') protocolVersion = version;
      await local.send(answer);
    }
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
