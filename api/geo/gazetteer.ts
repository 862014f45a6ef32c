// The places a question names, in the order it names them: states (names, capitalised codes),
// counties (with or without "County"/"Parish", short forms such as "LA county", New York City's
// boroughs), large cities read as the county that holds them, and misspellings of any of these
// (fuse.js). Counties come from the loan-limits capability's county list, read once per load. The one
// gazetteer of the service: the question reader and the catalogue's search read places through it.
import fs from 'node:fs';
import path from 'node:path';
import Fuse from 'fuse.js';
import { PROJECT_ROOT } from '../config.ts';
import { STATES, findState } from './states.ts';
import { baseKey, matchKey } from './county-names.ts';
import { countyInEachState, listedCounties } from './county-lists.ts';
import { CITY_COUNTIES, COUNTY_SHORT_FORMS } from './city-counties.ts';
import { WORD_CODES } from './word-codes.ts';

/** Where the gazetteer reads its counties: the loan-limits capability's county list of each state. */
export interface CountyLister {
  counties(state: string): Promise<readonly { fips: string; state: string; name: string }[]>;
}
type PlacesDeps = { services: { loanLimits: CountyLister } };

export interface StatePlace {
  kind: 'state';
  code: string;
  name: string;
  /** Where the question names it: from `at` to `end` (exclusive). */
  at: number;
  end: number;
}

export interface CountyPlace {
  kind: 'county';
  fips: string;
  state: string;
  name: string;
  at: number;
  end: number;
  /** How the question's words were read, when not as written ("Houston → Harris County, TX"). */
  readAs?: string;
  /**
   * The states that have a county of this name, when the question named none and there are several
   * ("Orange County": CA, FL, IN, NY, NC, TX, VA, VT); the county read is the most populous of them.
   */
  sameNameStates?: string[];
}

export type Place = StatePlace | CountyPlace | { kind: 'nation'; at: number; end?: number };

interface CountyEntry {
  fips: string;
  state: string;
  name: string;
  base: string;
}

let gazetteer:
  | Promise<{
      counties: CountyEntry[];
      byBase: Map<string, CountyEntry[]>;
      fuzzy: Fuse<{ key: string; label: string }>;
      /** Every state's counties were read: only then is the gazetteer kept for the next question. */
      complete: boolean;
    }>
  | undefined;
let gazetteerKey: unknown;

async function loadGazetteer(deps: PlacesDeps) {
  const counties: CountyEntry[] = [];
  let complete = true;
  for (const state of STATES) {
    try {
      const listed = await deps.services.loanLimits.counties(state.code);
      if (listed.length === 0) complete = false;
      for (const county of listed)
        counties.push({ fips: county.fips, state: county.state, name: county.name, base: baseKey(matchKey(county.name)) });
    } catch {
      // counties not loaded yet: places are then states and cities only, for this question
      complete = false;
    }
  }
  const byBase = new Map<string, CountyEntry[]>();
  for (const county of counties) byBase.set(county.base, [...(byBase.get(county.base) ?? []), county]);
  // Misspellings: city names, multi-word county names and state names, compared as written.
  const words = [
    ...Object.keys(CITY_COUNTIES).map((city) => ({ key: city, label: `city:${city}` })),
    ...STATES.filter((state) => state.name.length >= 6).map((state) => ({ key: state.name.toLowerCase(), label: `state:${state.code}` })),
  ];
  return {
    counties,
    byBase,
    complete,
    fuzzy: new Fuse(words, { keys: ['key'], includeScore: true, threshold: 0.25, ignoreLocation: true, minMatchCharLength: 5 }),
  };
}

function gazetteerFor(deps: PlacesDeps) {
  // One gazetteer per county list (tests build several apps in one process); the reader and the
  // catalogue share it. One read before the first sync has loaded the counties (the start's warm-up
  // on a fresh install) is used for that question only: kept, it would hide every county until a restart.
  if (!gazetteer || gazetteerKey !== deps.services.loanLimits) {
    gazetteerKey = deps.services.loanLimits;
    const loading = loadGazetteer(deps);
    gazetteer = loading;
    loading.then(
      (read) => {
        if (!read.complete && gazetteer === loading) gazetteer = undefined;
      },
      () => {
        if (gazetteer === loading) gazetteer = undefined;
      },
    );
  }
  return gazetteer;
}

let demonyms: [string, string][] | undefined;
/** What each state's residents are called ("Texans"), longest first: data/geo/state-demonyms.json. */
function stateDemonyms(): [string, string][] {
  demonyms ??= Object.entries(
    JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'data', 'geo', 'state-demonyms.json'), 'utf8')) as Record<string, string>,
  )
    .filter(([name]) => !name.startsWith('$'))
    .map(([name, code]): [string, string] => [name.toLowerCase(), code])
    .sort((a, b) => b[0].length - a[0].length);
  return demonyms;
}

function statesIn(text: string): StatePlace[] {
  const found: StatePlace[] = [];
  const lower = text.toLowerCase();
  const taken: [number, number][] = [];
  const names: [string, string][] = [
    ...STATES.map((state): [string, string] => [state.name.toLowerCase(), state.code]),
    ...stateDemonyms().map(([name, code]): [string, string] => [`${name}s?`, code]),
  ].sort((a, b) => b[0].length - a[0].length);
  for (const [name, code] of names) {
    const state = findState(code);
    if (!state) continue;
    for (const match of lower.matchAll(new RegExp(`\\b${name}\\b`, 'g'))) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some(([from, to]) => start < to && end > from)) continue;
      taken.push([start, end]);
      found.push({ kind: 'state', code: state.code, name: state.name, at: start, end });
    }
  }
  const allCaps = text === text.toUpperCase();
  for (const match of text.matchAll(/\b([A-Z]{2})\b/g)) {
    const code = match[1] as string;
    const state = findState(code);
    if (!state || (allCaps && WORD_CODES.has(code))) continue;
    if (code === 'VA' && /\bVA\s+(loan|mortgage|limit|rate|funding)/i.test(text.slice(match.index))) continue;
    if (code === 'LA' && /\bLA\s+county\b/i.test(text.slice(match.index))) continue;
    found.push({ kind: 'state', code: state.code, name: state.name, at: match.index, end: match.index + 2 });
  }
  return found;
}

/** The county of `state` (or, without one, the most populous of that name) whose base name is `base`. */
function pick(
  entries: readonly CountyEntry[] | undefined,
  state: string | undefined,
  populations: ReadonlyMap<string, number>,
): CountyEntry | undefined {
  if (!entries || entries.length === 0) return undefined;
  const inState = state ? entries.filter((entry) => entry.state === state) : [];
  if (inState.length > 0) return inState[0];
  if (state && entries.every((entry) => entry.state !== state)) return entries.length === 1 ? entries[0] : undefined;
  return [...entries].sort((a, b) => (populations.get(b.fips) ?? 0) - (populations.get(a.fips) ?? 0))[0];
}

/** The states with a county of one name and kind ("Washington County", not Washington Parish), when there are several. */
function statesNamed(entries: readonly CountyEntry[] | undefined, kind: string): string[] | undefined {
  const ofKind = (entries ?? []).filter((entry) => entry.name.toLowerCase().endsWith(kind.toLowerCase()));
  const states = [...new Set(ofKind.map((entry) => entry.state))].sort();
  return states.length > 1 ? states : undefined;
}

export interface PlaceContext {
  deps: PlacesDeps;
  /** Residents by county FIPS, to choose among counties of one name in different states. */
  populations: ReadonlyMap<string, number>;
}

/**
 * Whether every state's counties are known here: until the first sync has loaded them, a name the
 * gazetteer does not find may be a county, and is not to be called unknown.
 */
export async function countiesKnown(deps: PlacesDeps): Promise<boolean> {
  return (await gazetteerFor(deps)).complete;
}

/** Every place the question names, in order. */
export async function placesIn(question: string, context: PlaceContext): Promise<Place[]> {
  const { counties, byBase, fuzzy } = await gazetteerFor(context.deps);
  const states = statesIn(question);
  const places: Place[] = [...states];
  // A state's name that is a county's own ("Washington County", "Iowa County") locates no county.
  const locating = states.filter((state) => !/^\s+(county|parish)\b/i.test(question.slice(state.end)));
  const stateNear = (at: number) => {
    // The state written right after a county ("Cook County, Illinois"), else the only state named.
    const after = locating.filter((state) => state.at > at && state.at - at < 40).sort((a, b) => a.at - b.at)[0];
    return after?.code ?? (locating.length === 1 ? locating[0]?.code : undefined);
  };
  const claimed: [number, number][] = [];
  const addCounty = (entry: CountyEntry, at: number, end: number, readAs?: string, sameNameStates?: string[]) => {
    if (claimed.some(([from, to]) => at < to && end > from)) return;
    claimed.push([at, end]);
    const county: CountyPlace = {
      kind: 'county',
      fips: entry.fips,
      state: entry.state,
      name: `${entry.name}, ${entry.state}`,
      at,
      end,
      ...(readAs ? { readAs } : {}),
      ...(sameNameStates ? { sameNameStates } : {}),
    };
    places.push(county);
    // A state named only to locate the county, or whose name is the county's ("Washington County"),
    // is not a place of its own: its words are the county's.
    for (let index = places.length - 1; index >= 0; index -= 1) {
      const place = places[index] as Place;
      if (place.kind === 'state' && place.at >= at && place.end <= end) {
        places.splice(index, 1);
        continue;
      }
      if (place.kind === 'state' && place.code === entry.state && place.at > at && place.at - end < 4) {
        places.splice(index, 1);
        county.end = Math.max(county.end, place.end);
      }
    }
  };
  // "<Name> County", "<Name> Parish", "<Name> Borough", Connecticut's "<Name> Planning Region", Alaska's
  // "<Name> Census Area"; short forms such as "LA county".
  for (const match of question.matchAll(
    /\b((?:[A-Za-z.'-]+\s){0,3}?[A-Za-z.'-]+)\s+(county|parish|borough|planning region|census area|municipality)\b/gi,
  )) {
    const words = (match[1] as string).split(/\s+/);
    for (let skip = 0; skip < words.length; skip += 1) {
      const phrase = words.slice(skip).join(' ');
      const short = COUNTY_SHORT_FORMS[phrase.toLowerCase()];
      const base = baseKey(matchKey(short?.name ?? phrase));
      const start = match.index + match[0].indexOf(phrase);
      const state = stateNear(match.index);
      const entry = short ? counties.find((county) => county.fips === short.fips) : pick(byBase.get(base), state, context.populations);
      if (entry) {
        const readAs = short ? `${phrase} County → ${entry.name}, ${entry.state}` : undefined;
        addCounty(
          entry,
          start,
          match.index + match[0].length,
          readAs,
          short || state ? undefined : statesNamed(byBase.get(base), match[2] as string),
        );
        break;
      }
    }
  }
  listedCounties(question, byBase, context.populations, stateNear, addCounty);
  // Boroughs and large cities, as written or misspelled, read as their county.
  const lower = question.toLowerCase();
  for (const [city, target] of Object.entries(CITY_COUNTIES)) {
    for (const match of lower.matchAll(new RegExp(`\\b${city.replace(/[.]/g, '\\.')}\\b(?!\\s+(county|parish))`, 'g'))) {
      const entry = counties.find((county) => county.fips === target.fips);
      if (entry) addCounty(entry, match.index, match.index + city.length, `${titleWords(city)} → ${entry.name}, ${entry.state}`);
    }
  }
  if (!places.some((place) => place.kind !== 'state')) misspelledPlaces(lower, places, { counties, fuzzy, addCounty });
  const nation = nationIn(question);
  if (nation) places.push(nation);
  places.sort((a, b) => a.at - b.at);
  countyInEachState(question, places, counties);
  return places;
}

type CountyAdder = (entry: CountyEntry, at: number, end: number, readAs?: string) => void;

/** Misspelt states and cities after "in", "for", "of" or "at" ("san fransisco"), by fuse.js. */
function misspelledPlaces(
  lower: string,
  places: Place[],
  gazetteer: { counties: readonly CountyEntry[]; fuzzy: Fuse<{ key: string; label: string }>; addCounty: CountyAdder },
): void {
  const { counties, fuzzy, addCounty } = gazetteer;
  for (const match of lower.matchAll(/\b(?:in|for|of|at)\s+((?:[a-z.'-]+\s?){1,3})/g)) {
    const words = (match[1] as string).trim().split(/\s+/);
    for (let length = Math.min(3, words.length); length >= 1; length -= 1) {
      const phrase = words.slice(0, length).join(' ');
      if (phrase.length < 6) continue;
      const best = fuzzy.search(phrase)[0];
      if (!best || (best.score ?? 1) > 0.2) continue;
      const at = match.index + match[0].indexOf(phrase);
      const [kind, key] = best.item.label.split(':') as [string, string];
      if (kind === 'state') {
        const state = findState(key);
        if (state && !places.some((place) => place.kind === 'state' && place.code === state.code))
          places.push({ kind: 'state', code: state.code, name: state.name, at, end: at + phrase.length });
      } else {
        const target = CITY_COUNTIES[key];
        const entry = target && counties.find((county) => county.fips === target.fips);
        if (entry) addCounty(entry, at, at + phrase.length, `"${phrase}" read as ${titleWords(key)} → ${entry.name}, ${entry.state}`);
      }
      break;
    }
  }
}

/** "nationwide", "the US", "the country": the nation as a place. */
function nationIn(question: string): Place | undefined {
  const nation = /\b(nationwide|nationally|national|the (?:us|u\.s\.|united states|country|nation)|all (?:us|u\.s\.) )\b/i.exec(question);
  if (!nation) return undefined;
  const at = question.toLowerCase().search(/nationwide|nationally|national|united states|country|nation|all us|all u\.s\./);
  return { kind: 'nation', at, end: nation.index + nation[0].length };
}

const titleWords = (text: string) => text.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
