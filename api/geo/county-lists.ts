// Several counties named in one breath: a list of names before "counties" ("Travis, Williamson and
// Hays counties") is a county each, of the state written after it or else of a state that has them
// all; and one county name before a list of states ("Summit County in Colorado, Utah and Ohio") is
// that state's county of the name in each, so none of them is answered for the first only.
import { baseKey, matchKey } from './county-names.ts';

interface Entry {
  fips: string;
  state: string;
  name: string;
  base: string;
}

/** The places the gazetteer found, as far as a list needs them. */
type Found =
  | { kind: 'state'; code: string; name: string; at: number; end: number }
  | { kind: 'county'; fips: string; state: string; name: string; at: number; end: number }
  | { kind: 'nation'; at: number; end?: number };

type Add = (entry: Entry, at: number, end: number, readAs?: string, sameNameStates?: string[]) => void;

const NAME = String.raw`[A-Z][A-Za-z.'-]*(?:\s[A-Z][A-Za-z.'-]*)?`;
const SEPARATOR = String.raw`(?:\s*,\s*(?:and\s+|or\s+|&\s+)?|\s+(?:and|or|&)\s+)`;
const LIST = new RegExp(String.raw`\b((?:${NAME}${SEPARATOR})+)(${NAME})\s+(counties|parishes)\b`, 'g');

/** The states every list of counties has one in, most residents first. */
function sharedStates(options: readonly Entry[][], populations: ReadonlyMap<string, number>): string[] {
  const [first, ...rest] = options;
  const states = [...new Set((first ?? []).map((entry) => entry.state))].filter((state) =>
    rest.every((entries) => entries.some((entry) => entry.state === state)),
  );
  const residents = (state: string) =>
    options.reduce((sum, entries) => sum + (populations.get(entries.find((entry) => entry.state === state)?.fips ?? '') ?? 0), 0);
  return states.sort((a, b) => residents(b) - residents(a));
}

/** "Travis, Williamson and Hays counties": each name a county of one state. */
export function listedCounties(
  question: string,
  byBase: ReadonlyMap<string, Entry[]>,
  populations: ReadonlyMap<string, number>,
  stateNear: (at: number) => string | undefined,
  add: Add,
): void {
  for (const match of question.matchAll(LIST)) {
    const kind = match[3]?.toLowerCase() === 'parishes' ? 'parish' : 'county';
    const listed = match[0].slice(0, match[0].length - (match[3]?.length ?? 0));
    const names = [...listed.matchAll(new RegExp(NAME, 'g'))];
    const options = names.map((name) =>
      (byBase.get(baseKey(matchKey(name[0]))) ?? []).filter((entry) => entry.name.toLowerCase().endsWith(kind)),
    );
    if (names.length < 2 || options.some((entries) => entries.length === 0)) continue;
    const written = stateNear(match.index + match[0].length);
    const shared = written ? [written] : sharedStates(options, populations);
    const state = shared[0];
    if (!state) continue;
    names.forEach((name, index) => {
      const entry = options[index]?.find((candidate) => candidate.state === state);
      const at = match.index + (name.index ?? 0);
      // The last name's words run to "counties": the list names these places, not a set to range over.
      const end = index === names.length - 1 ? match.index + match[0].length : at + name[0].length;
      if (entry) add(entry, at, end, undefined, shared.length > 1 ? shared : undefined);
    });
  }
}

const JOINS = /^\s*(?:,|in|of|,?\s*and|,?\s*or|&)\s*$/i;

/** "Summit County in Colorado, Utah and Ohio": the county of that name in each state listed after it. */
export function countyInEachState(question: string, places: Found[], counties: readonly Entry[]): void {
  for (const county of places.filter((place): place is Extract<Found, { kind: 'county' }> => place.kind === 'county')) {
    const base = counties.find((entry) => entry.fips === county.fips)?.base;
    if (!base) continue;
    let end = county.end;
    const listed: number[] = [];
    for (const [index, place] of places.entries()) {
      if (place.kind !== 'state' || place.at < end || !JOINS.test(question.slice(end, place.at))) continue;
      listed.push(index);
      end = place.end;
    }
    if (!listed.some((index) => (places[index] as Found & { code?: string }).code !== county.state)) continue;
    for (const index of listed.reverse()) {
      const state = places[index] as Extract<Found, { kind: 'state' }>;
      const twin = counties.find((entry) => entry.base === base && entry.state === state.code);
      if (state.code === county.state) {
        // Its own state locates it: the state's words are the county's.
        places.splice(index, 1);
        county.end = Math.max(county.end, state.end);
      } else if (twin)
        places.splice(index, 1, {
          kind: 'county',
          fips: twin.fips,
          state: twin.state,
          name: `${twin.name}, ${twin.state}`,
          at: state.at,
          end: state.end,
        });
    }
  }
}
