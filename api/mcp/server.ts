// createMcpServer: the MCP server with the service's tools, resources and prompts, for one protocol
// era. It is built once and serves every caller (./server-pool.ts keeps instances for reuse; the
// caller comes with each request, ./request-caller.ts); the stdio entry builds its own. Both call the
// same domain services as the REST API.
//
// What it advertises is what it delivers: nothing in the tool or prompt lists changes while the
// process runs (no `listChanged`); at 2026-07-28 resource updates and the resource list's changes
// reach `subscriptions/listen` streams (./change-notices.ts); the 2025-era versions, served without
// sessions, have no channel to push on, so no subscriptions and no `listChanged` there.
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { AppDeps } from '../deps.ts';
import { ANONYMOUS, type McpCaller } from './request-caller.ts';
import { registerTools } from './tools/index.ts';
import { registerResources } from './resources.ts';
import { registerPrompts } from './prompts.ts';
import { registerSeriesResource } from './series-resource.ts';
import { publishToolListing } from './tool-listing.ts';
import { GuardedMcpServer } from './guarded-server.ts';
import { operationHints, ttlUntilChange, type CacheHintOptions } from './cache-hints.ts';
import { datasetsOfResource } from './resource-datasets.ts';
import { PINNED_VERSIONS_INSTRUCTIONS } from '../platform/contract/versions.ts';

/** What a client puts before its model once: what every tool shares, said here instead of in each tool. */
export const SERVER_INSTRUCTIONS =
  'Mortgage data from official publishers (Freddie Mac PMMS, Optimal Blue via FRED, FHFA, HUD, FFIEC HMDA, Federal Reserve, ' +
  "BLS, congress.gov). Every result carries sources with as-of dates: cite them. A result's text starts with its summary and " +
  'states its caveats (stale figures, programs not loaded, estimates); a long list comes a page at a time, saying how to ask ' +
  'for the rest. query_hmda needs an API key (X-API-Key header); the other tools do not. Arguments are read as people write ' +
  'them: a state by code or name in any case, a value in any case with spaces, hyphens or underscores, a number as text ' +
  '("15", "90%"), a list as an array or comma-separated text, dates as YYYY-MM-DD; each tool\'s inputSchema says exactly ' +
  'what it accepts. Series (rates, outstanding-mortgage rates by state, loan limits by county, HMDA totals and shares for the nation, ' +
  'every state and county, population): find_series gives ids; analyze_data computes over them in one call (rank all states or ' +
  "a state's counties, per 1,000 residents, counts, changes, extremes, shares, payments); mds://series/{id} reads one. " +
  'get_mortgage_rates: a national benchmark or survey is an average of locks or offers, not an offer; it is the same in every state and ' +
  "does not vary by FICO, LTV, occupancy, property type or purpose unless `tier_specific` says so; the full caveats are the result's " +
  '`disclaimer`. Errors and references name the tool and arguments, or the mds:// resource, that answer next; REST links are for people. ' +
  `${PINNED_VERSIONS_INSTRUCTIONS}`;

/** The 2025-era versions (an `initialize` handshake) or 2026-07-28 (stateless, per-request envelope). */
export type ProtocolEra = 'legacy' | 'modern';

export interface McpServerOptions {
  era: ProtocolEra;
  /** The caller of requests that carry none (stdio's MDS_API_KEY); anonymous by default. */
  caller?: McpCaller;
  /** Whether change notices reach this server's subscribers (the HTTP endpoint's, at 2026-07-28); default true. */
  notices?: boolean;
}

export function capabilitiesFor(era: ProtocolEra, notices = true): ServerCapabilities {
  const pushes = era === 'modern' && notices;
  return {
    tools: { listChanged: false },
    prompts: { listChanged: false },
    resources: pushes ? { subscribe: true, listChanged: true } : { listChanged: false },
  };
}

export function createMcpServer(deps: AppDeps, { era, caller = ANONYMOUS, notices = true }: McpServerOptions): GuardedMcpServer {
  const hints: CacheHintOptions = { clock: deps.clock, dailyRefresh: deps.config.SYNC_DAILY };
  const server = new GuardedMcpServer(
    { name: 'mortgage-data-service', title: 'Mortgage Data Service', version: deps.config.version },
    { capabilities: capabilitiesFor(era, notices), instructions: SERVER_INSTRUCTIONS, cacheHints: operationHints(hints) },
  );
  server.guardReads({
    logger: deps.logger,
    cacheHintFor: async (uri) => ({ ttlMs: ttlUntilChange((await datasetsOfResource(deps, uri)) ?? [], hints), cacheScope: 'public' }),
  });
  registerTools(server, { deps, caller });
  publishToolListing(server);
  // Before the other resources: their `mds://{collection}/{slug}` would also match `mds://series/MORTGAGE30US`.
  registerSeriesResource(server, deps);
  registerResources(server, deps);
  registerPrompts(server, deps);
  return server;
}
