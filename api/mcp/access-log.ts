// What the access-log line of an MCP request says beyond the URL (always /api/mcp): the JSON-RPC
// method, and for a tool call the tool's name, so an operator reading the log sees which tools are
// used and which are slow or failing.
import type { ServerResponse } from 'node:http';
import { addAccessLogFields } from '../platform/http/request-context.ts';

/** Longest name logged: a client's text, kept short. */
const NAME_MAX = 64;

const named = (value: unknown) => (typeof value === 'string' ? value.slice(0, NAME_MAX) : undefined);

/** `mcpMethod` (e.g. "tools/call") and, for a tool call, `mcpTool` (e.g. "get_loan_limits"). */
export function mcpLogFields(body: unknown): Record<string, string> {
  const message = (Array.isArray(body) ? body[0] : body) as { method?: unknown; params?: { name?: unknown } } | null | undefined;
  const method = named(message?.method);
  if (method === undefined) return {};
  const tool = method === 'tools/call' ? named(message?.params?.name) : undefined;
  return { mcpMethod: method, ...(tool === undefined ? {} : { mcpTool: tool }) };
}

/** Names the MCP method and tool of this request in its access-log line. */
export function logMcpCall(res: ServerResponse, body: unknown): void {
  const fields = mcpLogFields(body);
  if (Object.keys(fields).length > 0) addAccessLogFields(res, fields);
}
