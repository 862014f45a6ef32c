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

/** The datasets behind `uri`; undefined for an address this server does not serve. */
export async function datasetsOfResource(deps: ResourceDatasetsDeps, uri: string): Promise<readonly string[] | undefined> {
  if (uri.startsWith(SERIES_PREFIX)) {
    const id = uri.slice(SERIES_PREFIX.length).split(/[?#]/)[0] ?? '';
    try {
      return (await deps.services.series.read(decodeURIComponent(id))).versions.map((version) => version.dataset);
    } catch {
      return undefined;
    }
  }
  return BY_PREFIX.find(([prefix]) => uri.startsWith(prefix))?.[1];
}
