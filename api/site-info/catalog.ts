// What the service is, in one place: company facts, the REST endpoints (read from the same route
// table that serves them), the MCP tools, feeds and pages. brand-facts.json, llms.txt and
// /ai-info-page are all rendered from this, so they cannot drift from the code.
import { describeApi } from '../api-description.ts';
import type { Config } from '../config.ts';
import { MCP_TOOL_NAMES } from '../mcp/tool-names.ts';
import { rateLimitPhrases } from '../platform/rate-limit-text.ts';
import { keysPhrase } from '../platform/keys-text.ts';

export const SERVICE_NAME = 'Mortgage Data Service';
export const SERVICE_DESCRIPTION =
  'Open, self-hostable mortgage data for developers and AI agents: rates by state, FICO tier and LTV tier (a lender rate sheet ' +
  'where one is imported, otherwise the national benchmark with a documented state estimate, said so on every record) beside the ' +
  'weekly national survey and the market benchmark; conforming, FHA, VA and USDA loan limits for every county; HMDA market ' +
  'statistics; an economic calendar; escrow months at closing; natural-language answers with citations; and an MCP server.';

export interface EndpointFact {
  method: string;
  path: string;
  summary: string;
  url: string;
  apiHostUrl: string;
}

export interface ServiceCatalog {
  name: string;
  description: string;
  version: string;
  status: string;
  license: string;
  terms: string;
  baseUrl: string;
  apiBaseUrl: string;
  apiHostUrl: string;
  documentation: { human: string; openapi: string };
  endpoints: EndpointFact[];
  mcp: { url: string; transport: string; authentication: string; tools: { name: string; description: string; requiresKey: boolean }[] };
  authentication: { methods: string[]; limits: Record<string, string>; keys: string };
  feeds: { title: string; url: string; format: string }[];
  files: { title: string; url: string }[];
  citation: { preferred: string; rules: string[] };
}

export function serviceCatalog(config: Config): ServiceCatalog {
  const openapi = describeApi(config) as { paths: Record<string, Record<string, { summary?: string }>>; servers?: { url: string }[] };
  const apiBaseUrl = `${config.baseUrl}/api/v1`;
  const apiHostUrl = openapi.servers?.find((server) => !server.url.startsWith(apiBaseUrl))?.url ?? apiBaseUrl;
  const endpoints: EndpointFact[] = [];
  for (const [routePath, operations] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      endpoints.push({
        method: method.toUpperCase(),
        path: routePath,
        summary: operation.summary ?? '',
        url: `${apiBaseUrl}${routePath}`,
        apiHostUrl: `${apiHostUrl}${routePath}`,
      });
    }
  }
  const at = (path: string): string => `${config.baseUrl}${path}`;
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    version: config.version,
    status: 'public beta: parameters may be defined before they are available, and limits and features may change',
    license: 'Software: MIT. Data: free for non-commercial use; commercial or high-volume use by separate arrangement.',
    terms: 'Every figure comes from an official publisher or a documented computation and carries its source and as-of date.',
    baseUrl: config.baseUrl,
    apiBaseUrl,
    apiHostUrl,
    documentation: { human: at('/docs/api'), openapi: `${apiBaseUrl}/openapi.json` },
    endpoints,
    mcp: {
      url: at('/api/mcp'),
      transport: 'Streamable HTTP (stateless): protocol 2026-07-28, and 2025-11-25 and earlier versions',
      authentication: 'optional X-API-Key header; query_hmda requires a key',
      tools: MCP_TOOL_NAMES.map((tool) => ({ ...tool })),
    },
    authentication: {
      methods: ['X-API-Key: <key>', 'Authorization: Bearer <key>', 'api_key=<key> query parameter', 'secret=<key> query parameter'],
      limits: rateLimitPhrases(config),
      keys: keysPhrase(config),
    },
    feeds: [
      { title: 'Articles and learn pages', url: at('/feed.xml'), format: 'RSS 2.0' },
      { title: 'Market updates and news', url: at('/news-feed.xml'), format: 'RSS 2.0' },
      { title: 'Dataset updates (each new version of a dataset)', url: at('/dataset-updates.xml'), format: 'RSS 2.0' },
      { title: 'Dataset updates (each new version of a dataset)', url: at('/dataset-updates.json'), format: 'JSON Feed 1.1' },
    ],
    files: [
      { title: 'Brand facts (machine-readable)', url: at('/.well-known/brand-facts.json') },
      { title: 'Context for AI models', url: at('/ai-info-page') },
      { title: 'llms.txt', url: at('/llms.txt') },
      { title: 'Sitemap', url: at('/sitemap.xml') },
    ],
    citation: {
      preferred: `${SERVICE_NAME} (${config.baseUrl}), citing the original publisher and the as-of date given with each figure.`,
      rules: [
        'Name the original publisher of a figure (for example Freddie Mac PMMS, FHFA, HUD, CFPB HMDA) and its as-of date; every response carries both.',
        'Link to the page or endpoint the figure came from (glossary, article or API URL).',
        'Market updates are generated from the data each week; quote their numbers with the survey week they belong to.',
        'Rates are averages or modes of offered rates, not an offer of credit; loan limits change every January.',
      ],
    },
  };
}
