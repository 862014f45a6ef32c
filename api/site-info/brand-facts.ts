// /.well-known/brand-facts.json: the service catalog plus what only the running service knows:
// each loaded dataset with its publisher, source and as-of date (from the `datasets` table), which
// MCP tools the tool registry serves, and how much content is indexed.
import type { CoreDeps } from '../platform/core-deps.ts';
import type { UsesServices } from '../domain-services.ts';
import { toolCatalog } from '../mcp/tools/index.ts';
import { serviceCatalog, type ServiceCatalog } from './catalog.ts';

type BrandFactsDeps = Pick<CoreDeps, 'config' | 'db' | 'clock'> & UsesServices<'datasets'>;

export interface DataSourceFact {
  dataset: string;
  publisher: string;
  sourceUrl: string;
  asOf: string | null;
  rows: number;
  loadedAt: string;
}

export interface BrandFacts extends Omit<ServiceCatalog, 'mcp'> {
  generatedAt: string;
  dataSources: DataSourceFact[];
  mcp: ServiceCatalog['mcp'] & { tools: (ServiceCatalog['mcp']['tools'][number] & { available: boolean })[] };
  content: Record<string, number>;
}

// Datasets whose files sit on a redistributor's host: name the original publisher.
const PUBLISHER_BY_DATASET: Record<string, string> = {
  pmms: 'Freddie Mac (Primary Mortgage Market Survey), via FRED, Federal Reserve Bank of St. Louis',
  optimal_blue: 'Optimal Blue (Mortgage Market Indices), via FRED, Federal Reserve Bank of St. Louis',
  search_index: 'Mortgage Data Service (our own content and generated market updates)',
};

const PUBLISHER_BY_HOST: [RegExp, string][] = [
  [/(^|\.)fhfa\.gov$/, 'Federal Housing Finance Agency (FHFA)'],
  [/(^|\.)hud\.gov$|(^|\.)hudexchange\.info$|(^|\.)huduser\.gov$/, 'U.S. Department of Housing and Urban Development (HUD)'],
  [/(^|\.)va\.gov$/, 'U.S. Department of Veterans Affairs'],
  [/(^|\.)usda\.gov$/, 'U.S. Department of Agriculture, Rural Development'],
  [/ffiec\.cfpb\.gov$|(^|\.)ffiec\.gov$/, 'FFIEC / Consumer Financial Protection Bureau (HMDA)'],
  [/(^|\.)consumerfinance\.gov$/, 'Consumer Financial Protection Bureau (CFPB)'],
  [/(^|\.)stlouisfed\.org$/, 'Federal Reserve Bank of St. Louis (FRED)'],
  [/(^|\.)federalreserve\.gov$/, 'Board of Governors of the Federal Reserve System'],
  [/(^|\.)bls\.gov$/, 'U.S. Bureau of Labor Statistics'],
  [/(^|\.)bea\.gov$/, 'U.S. Bureau of Economic Analysis'],
  [/(^|\.)census\.gov$/, 'U.S. Census Bureau'],
  [/(^|\.)congress\.gov$/, 'Library of Congress (Congress.gov)'],
  [/(^|\.)govinfo\.gov$/, 'U.S. Government Publishing Office (GovInfo)'],
  [/(^|\.)freddiemac\.com$/, 'Freddie Mac'],
];

export function publisherOf(dataset: string, sourceUrl: string): string {
  const known = PUBLISHER_BY_DATASET[dataset];
  if (known) return known;
  let host = '';
  try {
    host = new URL(sourceUrl).hostname.toLowerCase();
  } catch {
    return sourceUrl;
  }
  return PUBLISHER_BY_HOST.find(([pattern]) => pattern.test(host))?.[1] ?? host;
}

export async function buildBrandFacts(deps: BrandFactsDeps): Promise<BrandFacts> {
  const catalog = serviceCatalog(deps.config);
  const served = new Set(toolCatalog.map((tool) => tool.name));
  const [datasets, content] = await Promise.all([
    deps.services.datasets.list(),
    deps.db
      .query<{ type: string; n: number }>('SELECT type, count(*)::int AS n FROM search_documents GROUP BY type ORDER BY type')
      .then(({ rows }) => Object.fromEntries(rows.map((row) => [row.type, row.n]))),
  ]);
  return {
    ...catalog,
    generatedAt: deps.clock().toISOString(),
    dataSources: datasets.map((record) => ({
      dataset: record.name,
      publisher: publisherOf(record.name, record.sourceUrl),
      sourceUrl: record.sourceUrl,
      asOf: record.asOf,
      rows: record.rows,
      loadedAt: record.loadedAt,
    })),
    mcp: { ...catalog.mcp, tools: catalog.mcp.tools.map((tool) => ({ ...tool, available: served.has(tool.name) })) },
    content,
  };
}
