// States and counties as people write them: a state by code or name in any case, a county with or
// without "County"/"Parish"/"Borough", and New York City's boroughs as the counties they are.
import { z } from 'zod';
import { STATE_CODES, TERRITORY_CODES, findState, findTerritory, type StateCode, type TerritoryCode } from '../../geo/states.ts';
import { boroughCounty } from '../../geo/county-names.ts';
import { listValues, valueMessage } from './messages.ts';

type Issue = { path?: PropertyKey[] | undefined; input?: unknown };

const STATE_HINT = `Give a 2-letter code or a state name (50 states and DC), e.g. "TX" or "Texas"; valid codes: ${listValues(STATE_CODES)}.`;

/** One of the 50 states or DC, by code or full name, in any case. */
export function stateCode() {
  const toCode = (value: unknown) => (typeof value === 'string' ? (findState(value)?.code ?? value) : value);
  return z.preprocess(toCode, z.enum(STATE_CODES, { error: (issue: Issue) => valueMessage(issue, STATE_HINT) }));
}

const STATE_OR_TERRITORY_CODES = [...STATE_CODES, ...TERRITORY_CODES].sort() as [StateCode | TerritoryCode, ...(StateCode | TerritoryCode)[]];
const STATE_OR_TERRITORY_HINT =
  `Give a 2-letter code or a name (50 states, DC and the territories), e.g. "TX", "Texas" or "Puerto Rico"; ` +
  `valid codes: ${listValues(STATE_OR_TERRITORY_CODES)}.`;

/** A state, DC or a territory (PR, GU, VI, AS, MP), by code or name, for capabilities that cover them. */
export function stateOrTerritoryCode() {
  const toCode = (value: unknown) => (typeof value === 'string' ? (findState(value)?.code ?? findTerritory(value) ?? value) : value);
  return z.preprocess(toCode, z.enum(STATE_OR_TERRITORY_CODES, { error: (issue: Issue) => valueMessage(issue, STATE_OR_TERRITORY_HINT) }));
}

const COUNTY_HINT =
  'Give a county name, with or without "County" or "Parish" (e.g. "Los Angeles", "Cook County", "Brooklyn"), ' +
  'or its 5-digit FIPS code.';

/**
 * A county name or FIPS code, trimmed, with a New York City borough replaced by its county
 * ("Brooklyn" → "Kings County"). Which counties exist is the capability's to check: this only
 * normalises what was written. Suffixes stay, since "Baltimore" and "Baltimore city" differ.
 */
export function countyName() {
  const normalise = (value: unknown) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim().replace(/\s+/g, ' ');
    return boroughCounty(trimmed) ?? trimmed;
  };
  const error = (issue: Issue) => valueMessage(issue, COUNTY_HINT);
  return z.preprocess(normalise, z.string({ error }).min(1, { error }).max(100, { error }));
}
