// Turns the `state` and `county` a caller gave into counties of the loaded county list: the state as
// the contract read it (code or name), checked against the states loaded; the county by 5-digit
// FIPS, 3-digit county code or name in any of the spellings publishers use. Unknown input gets a 400
// with close suggestions. Pure code over the in-memory county list.
import { findState, TERRITORIES, type TerritoryCode } from '../geo/states.ts';
import { BadRequestError } from '../platform/errors.ts';
import { baseKey, editDistance, matchKey } from '../geo/county-names.ts';

export interface CountyRecord {
  fips: string;
  state: string;
  stateFips: string;
  name: string;
  matchKey: string;
  kind: 'county' | 'planning_region';
  note: string | null;
}

export function stateName(code: string): string {
  return findState(code)?.name ?? TERRITORIES[code as TerritoryCode] ?? code;
}

/** `code` when some county of it is loaded, or a 400 listing the codes that are. */
export function resolveState(loaded: readonly string[], code: string): string {
  if (loaded.includes(code)) return code;
  throw new BadRequestError(
    `Invalid value for 'state': "${code}". Give a 2-letter code or a state name; valid codes: ${loaded.join(', ')}.`,
  );
}

/** One county of `state` matching `input` (name or FIPS), or a 400 that says what would match. */
export function resolveCounty(counties: readonly CountyRecord[], state: string, input: string): CountyRecord {
  const trimmed = input.trim();
  const stateFips = counties[0]?.stateFips ?? '';
  if (/^\d{5}$/.test(trimmed)) {
    const found = counties.find((county) => county.fips === trimmed);
    if (found) return found;
    throw new BadRequestError(
      trimmed.startsWith(stateFips)
        ? `No county with FIPS ${trimmed} in ${state}. Give a county name or one of ${state}'s 5-digit FIPS codes (${stateFips}xxx).`
        : `FIPS ${trimmed} is not in ${state} (${state} codes start with ${stateFips}). Check the state or the code.`,
    );
  }
  if (/^\d{3}$/.test(trimmed)) {
    const found = counties.find((county) => county.fips === `${stateFips}${trimmed}`);
    if (found) return found;
  }
  const key = matchKey(trimmed);
  if (key === '') throw new BadRequestError(`Invalid value for 'county': give a county name or a 5-digit FIPS code.`);
  const exact = counties.filter((county) => county.matchKey === key);
  if (exact.length === 1 && exact[0]) return exact[0];
  const base = baseKey(key);
  const loose = counties.filter((county) => baseKey(county.matchKey) === base);
  if (loose.length === 1 && loose[0]) return loose[0];
  if (loose.length > 1) {
    throw new BadRequestError(
      `"${trimmed}" matches several places in ${state}: ${loose.map((c) => `${c.name} (${c.fips})`).join(', ')}. Give the full name or the FIPS code.`,
    );
  }
  const suggestions = counties
    .map((county) => {
      const candidate = baseKey(county.matchKey);
      const distance = candidate.startsWith(base) || base.startsWith(candidate) ? 0 : editDistance(base, candidate);
      return { county, distance };
    })
    .filter(({ distance }) => distance <= Math.max(2, Math.floor(base.length / 3)))
    .sort((a, b) => a.distance - b.distance || a.county.name.localeCompare(b.county.name))
    .slice(0, 5)
    .map(({ county }) => `${county.name} (${county.fips})`);
  throw new BadRequestError(
    `Unknown county "${trimmed}" in ${state}.` +
      (suggestions.length > 0
        ? ` Did you mean: ${suggestions.join(', ')}?`
        : ` ${state} has ${counties.length} counties; give a county name or a 5-digit FIPS code.`),
  );
}
