// Which datasets an MCP resource is read from, by its URI: what a subscriber to the resource is told
// about when a sync publishes one of them (./change-notices.ts), and what its caching hint counts
// down to (./cache-hints.ts). Glossary terms and pages are content of this build: no dataset.
import type { UsesServices } from '../domain-services.ts';

type ResourceDatasetsDeps = UsesServices<'series'>;

const SERIES_PREFIX = 'mds://series/';

/** Resources whose datasets follow from their address alone. */
const BY_PREFIX: readonly (readonly [string, readonly string[]])[] = [
  ['mds://loan-limits/', ['loan_limits_conforming', 'loan_limits_fha', 'counties']],
  ['mds://counties/', ['counties']],
  ['mds://bills/', ['bills']],
  ['mds://glossary/', []],
  ['mds://articles/', []],
  ['mds://learn/', []],
];

/** The datasets behind `uri`; undefined for an address this server does not serve (never throws). */
export async function datasetsOfResource(deps: ResourceDatasetsDeps, uri: string): Promise<readonly string[] | undefined> {
  if (uri.startsWith(SERIES_PREFIX)) return seriesDatasets(deps, uri.slice(SERIES_PREFIX.length).split(/[?#]/)[0] ?? '');
  return BY_PREFIX.find(([prefix]) => uri.startsWith(prefix))?.[1];
}

/**
 * A series' datasets by its family (its id's syntax), so a series not loaded yet is followed too: the
 * catalogue names each family's datasets whether they are loaded or not.
 */
async function seriesDatasets(deps: ResourceDatasetsDeps, encodedId: string): Promise<readonly string[] | undefined> {
  let id: string;
  try {
    id = decodeURIComponent(encodedId);
  } catch {
    return undefined;
  }
  const family = deps.services.series.familyOf(id);
  if (family === undefined) return undefined;
  try {
    const catalogue = await deps.services.series.catalogue({ family, limit: 1 });
    return catalogue.families.find((candidate) => candidate.id === family)?.datasets;
  } catch {
    return undefined;
  }
}
