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
import { publishToolListing } from './tool-listing.ts';
import { PINNED_VERSIONS_INSTRUCTIONS } from '../platform/contract/versions.ts';

/** What a client puts before its model once: what every tool shares, said here instead of in each tool. */
export const SERVER_INSTRUCTIONS =
  'Mortgage data from official publishers (Freddie Mac PMMS, Optimal Blue via FRED, FHFA, HUD, FFIEC HMDA, Federal Reserve, ' +
  "BLS, congress.gov). Every result carries sources with as-of dates: cite them. A result's text starts with its summary and " +
  'states its caveats (stale figures, programs not loaded, estimates); a long list comes a page at a time, saying how to ask ' +
  'for the rest. query_hmda needs an API key (X-API-Key header); the other tools do not. Arguments are read as people write ' +
  'them: a state by code or name in any case, a value in any case with spaces, hyphens or underscores, a number as text ' +
  '("15", "90%"), a list as an array or comma-separated text, dates as YYYY-MM-DD; each tool\'s inputSchema says exactly ' +
  `what it accepts. ${PINNED_VERSIONS_INSTRUCTIONS}`;

export function createMcpServer(deps: AppDeps, caller: McpCaller): McpServer {
  const server = new McpServer(
    { name: 'mortgage-data-service', title: 'Mortgage Data Service', version: deps.config.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: SERVER_INSTRUCTIONS,
    },
  );
  registerTools(server, { deps, caller });
  publishToolListing(server);
  registerResources(server, deps);
  registerSeriesResource(server, deps);
  registerPrompts(server, deps);
  return server;
}
