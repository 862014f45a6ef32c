// The views of the research pages (see site/views/format.ts for why views exist): every state's
// research page by name, the generated research pages /articles lists (states, and counties grouped
// under their state), and the shape of a page's sources.
import { live } from '../lib/live.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { STATES } from '../../api/geo/states.ts';
import type { ResearchListing, ResearchSource } from '../../api/research/contract.ts';
import { statePath } from '../../api/research/slugs.ts';

export type { ResearchSource };

/** Every state's research page, by name (the codes' order puts Alaska before Alabama). */
export const STATE_PAGES: readonly { name: string; path: string }[] = [...STATES]
  .sort((a, b) => a.name.localeCompare(b.name))
  .map((state) => ({ name: state.name, path: statePath(state) }));

/**
 * The research pages generated from the data, for /articles: the states, and the counties by name
 * under their state. Empty while the research data is not loaded (or when `wanted` is false).
 */
export async function researchListingsView(deps: PageDeps | undefined, wanted: boolean) {
  const research = wanted ? await live(deps, (d) => d.services.research.listings()) : undefined;
  const listings: ResearchListing[] = research?.ok ? research.value : [];
  const countiesByState = new Map<string, ResearchListing[]>();
  for (const item of listings.filter((listing) => listing.kind === 'county')) {
    countiesByState.set(item.stateName, [...(countiesByState.get(item.stateName) ?? []), item]);
  }
  const countyGroups = [...countiesByState.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([state, counties]) => ({ state, counties: counties.sort((a, b) => a.place.localeCompare(b.place)) }));
  return {
    listings,
    states: listings.filter((item) => item.kind === 'state'),
    countyGroups,
    countyCount: countyGroups.reduce((sum, group) => sum + group.counties.length, 0),
  };
}
