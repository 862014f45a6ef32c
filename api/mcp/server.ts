// createMcpServer: one MCP server with the service's tools, resources and prompts, for a given
// caller. The HTTP transport builds one per request (stateless); the stdio entry builds one for the
// process. Both call the same domain services as the REST API.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AppDeps } from '../deps.ts';
import type { McpCaller } from './tool-kit.ts';
import { registerTools } from './tools/index.ts';
import { registerResources } from './resources.ts';
import { registerPrompts } from './prompts.ts';
import { registerSeriesResource } from './series-resource.ts';

export function createMcpServer(deps: AppDeps, caller: McpCaller): McpServer {
  const server = new McpServer(
    { name: 'mortgage-data-service', title: 'Mortgage Data Service', version: deps.config.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions:
        'Mortgage data from official publishers (Freddie Mac PMMS, Optimal Blue via FRED, FHFA, HUD, FFIEC HMDA, ' +
        'Federal Reserve, BLS, congress.gov). Every result carries sources with as-of dates: cite them. ' +
        'query_hmda needs an API key (X-API-Key header); the other tools do not.',
    },
  );
  registerTools(server, { deps, caller });
  registerResources(server, deps);
  registerSeriesResource(server, deps);
  registerPrompts(server, deps);
  return server;
}
