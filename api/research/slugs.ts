// The research pages' addresses: /research/<state-slug> and /research/<state-slug>/<county-slug>,
// made from the names readers search for ("ohio", "maricopa-county"). Pure functions, shared by the
// service, the pages, search and /ask.
import { STATES, type StateInfo } from '../geo/states.ts';

/** "St. Mary's County" → "st-marys-county"; "Doña Ana County" → "dona-ana-county". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’.]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const stateSlug = (state: Pick<StateInfo, 'name'>): string => slugify(state.name);

const BY_SLUG = new Map(STATES.map((state) => [stateSlug(state), state]));

/** The state a page slug names, or undefined. */
export const stateOfSlug = (slug: string): StateInfo | undefined => BY_SLUG.get(slug.toLowerCase());

export const statePath = (state: Pick<StateInfo, 'name'>): string => `/research/${stateSlug(state)}`;
export const countyPath = (state: Pick<StateInfo, 'name'>, countySlug: string): string => `${statePath(state)}/${countySlug}`;
