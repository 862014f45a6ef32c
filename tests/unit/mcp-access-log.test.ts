// The access-log line of an MCP request names what was asked: the JSON-RPC method and, for a tool
// call, the tool (api/mcp/access-log.ts), escaped as JSON whatever the client sent, on the
// hand-built line and on pino's.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../api/platform/logger.ts';
import { requestTracker } from '../../api/platform/http/request-context.ts';
import { logMcpCall, mcpLogFields } from '../../api/mcp/access-log.ts';

/** One POST /api/mcp with `body` through `logger`: the lines written. */
function mcpRequest(logger: Logger, written: string[], body: unknown): Record<string, unknown> {
  const req = { method: 'POST', url: '/api/mcp', headers: {} } as unknown as IncomingMessage;
  const res = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as ServerResponse;
  requestTracker(logger)(req, res);
  logMcpCall(res, body);
  res.emit('finish');
  return JSON.parse(written.at(-1)!) as Record<string, unknown>;
}

const call = (name: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } });

describe('the access-log line of an MCP request', () => {
  it('names the method, and the tool of a tool call, after the usual fields', () => {
    const written: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void written.push(line) });
    const line = mcpRequest(logger, written, call('get_loan_limits'));
    expect(line).toMatchObject({
      method: 'POST',
      url: '/api/mcp',
      status: 200,
      mcpMethod: 'tools/call',
      mcpTool: 'get_loan_limits',
      msg: 'request',
    });
    expect(Object.keys(line).slice(-3)).toEqual(['mcpMethod', 'mcpTool', 'msg']);
    expect(mcpRequest(logger, written, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).not.toHaveProperty('mcpTool');
    expect(mcpRequest(logger, written, { jsonrpc: '2.0', id: 3, method: 'tools/list' })).toMatchObject({ mcpMethod: 'tools/list' });
  });

  it('writes a name the client chose as JSON, cut short, and nothing for what is not JSON-RPC', () => {
    const written: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void written.push(line) });
    const hostile = `x"},"status":500,"y":"\n${'z'.repeat(200)}`;
    const line = mcpRequest(logger, written, call(hostile));
    expect(line.status).toBe(200);
    expect(line.mcpTool).toBe(hostile.slice(0, 64));
    expect(written.at(-1)!.split('\n')).toHaveLength(2);
    expect(mcpRequest(logger, written, 'not json-rpc')).not.toHaveProperty('mcpMethod');
    expect(mcpLogFields(call(42))).toEqual({ mcpMethod: 'tools/call' });
  });

  it('says the same through pino, for a logger createLogger did not make', () => {
    const written: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void written.push(line) });
    expect(mcpRequest(logger, written, call('search_content'))).toMatchObject({
      url: '/api/mcp',
      mcpMethod: 'tools/call',
      mcpTool: 'search_content',
      msg: 'request',
    });
  });
});
