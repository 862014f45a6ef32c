// States and counties as people write them: a state by code or name in any case, a county with or
// without "County"/"Parish"/"Borough", and New York City's boroughs as the counties they are.
import { z } from 'zod';
import { STATE_CODES, TERRITORY_CODES, findState, findTerritory, type StateCode, type TerritoryCode } from '../../geo/states.ts';
import { boroughCounty } from '../../geo/county-names.ts';
import { listValues, valueMessage } from './messages.ts';
import { lenient, textForms, textJson, trimWithin, type AcceptedInput } from './lenient.ts';

type Issue = { path?: PropertyKey[] | undefined; input?: unknown };

const STATE_HINT = `Give a 2-letter code or a state name (50 states and DC), e.g. "TX" or "Texas"; valid codes: ${listValues(STATE_CODES)}.`;

/**
 * The shape of a place's code or name as `findState`/`findTerritory` read it: words of letters (and
 * dots, "U.S."), any case, any spaces. Published instead of every name in every case, which would
 * take kilobytes per tool: a name of that shape the server does not know is refused naming the valid
 * codes. (A unit test checks every code and name has this shape.)
 */
export const PLACE_NAME_TEXT = '[A-Za-z][A-Za-z.]*(?:\\s+[A-Za-z][A-Za-z.]*)*';

/** Any code or name in any case (see PLACE_NAME_TEXT). */
const PLACES_INPUT: AcceptedInput = { json: textForms(PLACE_NAME_TEXT), text: PLACE_NAME_TEXT };

/** One of the 50 states or DC, by code or full name, in any case. */
export function stateCode() {
  const toCode = (value: unknown) => (typeof value === 'string' ? (findState(value)?.code ?? value) : value);
  return lenient(toCode, z.enum(STATE_CODES, { error: (issue: Issue) => valueMessage(issue, STATE_HINT) }), PLACES_INPUT);
}

const STATE_OR_TERRITORY_CODES = [...STATE_CODES, ...TERRITORY_CODES].sort() as [
  StateCode | TerritoryCode,
  ...(StateCode | TerritoryCode)[],
];
const STATE_OR_TERRITORY_HINT =
  `Give a 2-letter code or a name (50 states, DC and the territories), e.g. "TX", "Texas" or "Puerto Rico"; ` +
  `valid codes: ${listValues(STATE_OR_TERRITORY_CODES)}.`;

/** A state, DC or a territory (PR, GU, VI, AS, MP), by code or name, for capabilities that cover them. */
export function stateOrTerritoryCode() {
  const toCode = (value: unknown) => (typeof value === 'string' ? (findState(value)?.code ?? findTerritory(value) ?? value) : value);
  const error = (issue: Issue) => valueMessage(issue, STATE_OR_TERRITORY_HINT);
  return lenient(toCode, z.enum(STATE_OR_TERRITORY_CODES, { error }), PLACES_INPUT);
}

const COUNTY_HINT =
  'Give a county name, with or without "County" or "Parish" (e.g. "Los Angeles", "Cook County", "Brooklyn"), ' +
  'or its 5-digit FIPS code.';

const COUNTY_MAX = 100;

/**
 * A county name or FIPS code (at most 100 characters as given), trimmed, with a New York City
 * borough replaced by its county ("Brooklyn" → "Kings County"). Which counties exist is the
 * capability's to check: this only normalises what was written. Suffixes stay, since "Baltimore"
 * and "Baltimore city" differ.
 */
export function countyName() {
  const normalise = trimWithin(COUNTY_MAX, (value) => {
    const trimmed = value.trim().replace(/\s+/g, ' ');
    return boroughCounty(trimmed) ?? trimmed;
  });
  const error = (issue: Issue) => valueMessage(issue, COUNTY_HINT);
  return lenient(normalise, z.string({ error }).min(1, { error }).max(COUNTY_MAX, { error }), { json: textJson(1, COUNTY_MAX) });
}
