// Turns the `state` and `county` a caller typed into rows of the counties table: state by code or
// name (50 states, DC and the territories FHFA covers), county by 5-digit FIPS, 3-digit county code
// or name in any of the spellings publishers use; unknown input gets a 400 with close suggestions.
import { findState } from '../geo/states.ts';
import type { Queryable } from '../platform/db/database.ts';
import { BadRequestError } from '../platform/http/errors.ts';
import { baseKey, editDistance, matchKey } from './names.ts';

export interface CountyRecord {
  fips: string;
  state: string;
  stateFips: string;
  name: string;
  matchKey: string;
  kind: 'county' | 'planning_region';
  note: string | null;
}

const TERRITORIES: Record<string, string> = {
  PR: 'Puerto Rico', GU: 'Guam', VI: 'U.S. Virgin Islands', AS: 'American Samoa', MP: 'Northern Mariana Islands',
};

export function stateName(code: string): string {
  return findState(code)?.name ?? TERRITORIES[code] ?? code;
}

interface CountyDbRow {
  fips: string;
  state: string;
  state_fips: string;
  name: string;
  match_key: string;
  kind: 'county' | 'planning_region';
  note: string | null;
}

const toRecord = (row: CountyDbRow): CountyRecord => ({
  fips: row.fips, state: row.state, stateFips: row.state_fips, name: row.name, matchKey: row.match_key, kind: row.kind, note: row.note,
});

/** The state code for `input`, or a 400 listing every valid code. */
export async function resolveState(db: Queryable, input: string): Promise<string> {
  const { rows } = await db.query<{ state: string }>('SELECT DISTINCT state FROM counties ORDER BY state');
  const codes = rows.map((row) => row.state);
  const trimmed = input.trim();
  const upper = trimmed.toUpperCase();
  if (codes.includes(upper)) return upper;
  const byName = findState(trimmed)?.code ?? Object.entries(TERRITORIES).find(([, name]) => name.toLowerCase() === trimmed.toLowerCase())?.[0];
  if (byName && codes.includes(byName)) return byName;
  throw new BadRequestError(`Invalid value for 'state': "${trimmed}". Give a 2-letter code or a state name; valid codes: ${codes.join(', ')}.`);
}

export async function countiesOf(db: Queryable, state: string): Promise<CountyRecord[]> {
  const { rows } = await db.query<CountyDbRow>('SELECT fips, state, state_fips, name, match_key, kind, note FROM counties WHERE state = $1 ORDER BY name', [state]);
  return rows.map(toRecord);
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
    throw new BadRequestError(`"${trimmed}" matches several places in ${state}: ${loose.map((c) => `${c.name} (${c.fips})`).join(', ')}. Give the full name or the FIPS code.`);
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
      (suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : ` ${state} has ${counties.length} counties; give a county name or a 5-digit FIPS code.`),
  );
}
