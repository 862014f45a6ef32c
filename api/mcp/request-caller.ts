// Who is behind one MCP request. The server is built once and serves every caller, so the caller
// travels with each request: the HTTP face admits the request (key, rate limits) and hands the SDK
// the caller as the request's `authInfo`; a handler reads it back from its context. Over stdio there
// is no HTTP request, and the process's own caller (MDS_API_KEY) is the default.

/** Who is calling: tools that need a key (query_hmda) check it. */
export type McpCaller = { kind: 'anonymous' } | { kind: 'key'; keyId: string; accountId: string };

export const ANONYMOUS: McpCaller = Object.freeze({ kind: 'anonymous' });

/** The SDK's AuthInfo shape: validated credentials passed through to every handler of the request. */
export interface CallerAuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  extra: { caller: McpCaller };
}

/** The request's `authInfo` for a caller (the key itself never travels further than admission). */
export function authInfoFor(caller: McpCaller): CallerAuthInfo {
  return { token: '', clientId: caller.kind === 'key' ? caller.keyId : 'anonymous', scopes: [], extra: { caller } };
}

/** The caller a handler serves: the request's, or `fallback` where the transport has no request (stdio). */
export function callerOf(context: unknown, fallback: McpCaller): McpCaller {
  const extra = (context as { http?: { authInfo?: { extra?: { caller?: unknown } } } } | undefined)?.http?.authInfo?.extra;
  const caller = extra?.caller as McpCaller | undefined;
  return caller?.kind === 'key' || caller?.kind === 'anonymous' ? caller : fallback;
}
