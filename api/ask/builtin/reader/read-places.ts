// The places slot: the places a question names (the gazetteer: states, counties, cities read as
// their county, misspellings), and the set of places it ranges over ("which state", "Virginia
// counties", "each county of Texas"), with a filter such as "with more than 100,000 residents".
// A word another slot already read (the program "VA") is not taken for a place.
import type { PlaceSet } from './frame.ts';
import { placesIn, type Place, type PlaceContext } from '../../../geo/gazetteer.ts';
import { findState } from '../../../geo/states.ts';
import { isFunctionWord, type Coverage, type Word } from './words.ts';

const ASKING = ['which', 'what', 'each', 'every', 'all'];
const NATION_WORDS = ['nationwide', 'nationally', 'national', 'nation', 'country', 'us', 'u.s.', 'america', 'anywhere'];

/** The words of one place, as the gazetteer spans it (a county's state written after it included). */
function placeWords(words: readonly Word[], place: Place): number[] {
  if (place.kind === 'nation') return [];
  const end = place.end ?? place.at;
  return words.filter((word) => word.start >= place.at && word.start < end && word.end > word.start).map((word) => word.index);
}

/** "which state", "states", "Virginia counties", "each county of Texas", "counties in Idaho". */
function placeSetOf(coverage: Coverage, places: readonly Place[]): PlaceSet | undefined {
  const words = coverage.words;
  const setWord = words.find((word) => (word.root === 'state' || word.root === 'county') && !coverage.isTaken(word.index));
  // "Where were denial rates highest?": the states, when no place is named.
  const where = words.find((word) => word.normal === 'where' && !coverage.isTaken(word.index));
  if (!setWord && where && places.length === 0) {
    coverage.take([where.index], 'places.set');
    return { among: 'states' };
  }
  if (!setWord) return undefined;
  // "the states with the most counties …": counties, counted by state.
  const countyWord = words.find((word) => word.root === 'county' && !coverage.isTaken(word.index));
  if (setWord.root === 'state' && countyWord && places.length === 0) {
    coverage.take([setWord.index, countyWord.index], 'places.set');
    return { among: 'counties', by: 'state' };
  }
  const among = setWord.root === 'county' ? 'counties' : 'states';
  coverage.take([setWord.index], 'places.set');
  const state = among === 'counties' ? places.find((place) => place.kind === 'state') : undefined;
  // "Which counties …" asks for more than one; "which county" for one.
  const plural = setWord.normal !== setWord.root;
  const set: PlaceSet = { among, ...(state && state.kind === 'state' ? { state: state.code } : {}), ...(plural ? { plural } : {}) };
  return set;
}

export async function readPlaces(
  question: string,
  coverage: Coverage,
  context: PlaceContext,
): Promise<{ places: Place[]; placeSet?: PlaceSet; readings: string[] }> {
  const words = coverage.words;
  const found = await placesIn(question, context);
  const places: Place[] = [];
  const readings: string[] = [];
  for (const place of found) {
    // "Which Idaho county": a set of Idaho's counties, not Idaho County.
    const before = words.filter((word) => word.end <= place.at).at(-1);
    if (place.kind === 'county' && before && ASKING.includes(before.normal)) {
      // The state's name only ("New York" of "New York county"): "county" stays for the set of places.
      const countyWord = words.find((word) => word.start >= place.at && word.root === 'county');
      const name = words.filter((word) => word.start >= place.at && word.end <= (countyWord?.start ?? place.at)).at(-1);
      // "Which Texas county": Texas's counties, not Texas County, Missouri's state.
      const state = findState(question.slice(place.at, countyWord?.start ?? place.at).trim()) ?? findState(place.state);
      if (state) found.push({ kind: 'state', code: state.code, name: state.name, at: place.at, end: name?.end ?? place.at });
      continue;
    }
    if (place.kind === 'nation') {
      places.push(place);
      continue;
    }
    const indexes = placeWords(words, place);
    // Already read by another slot (the program "VA", a lender's name): not a place.
    if (indexes.length > 0 && indexes.every((index) => coverage.isTaken(index))) continue;
    coverage.take(indexes, 'places');
    // "Seattle buyer here, King County WA": the city's county named again is the same place, asked once.
    if (place.kind === 'county' && places.some((other) => sameCountyOfCity(other, place))) continue;
    places.push(place);
    if (place.kind === 'county' && place.readAs) readings.push(place.readAs);
  }
  for (const word of words) if (NATION_WORDS.includes(word.normal)) coverage.take([word.index], 'places');
  const placeSet = placeSetOf(coverage, places);
  // A state named to say whose counties ("Virginia counties") is the set's, not a place of its own.
  const own = placeSet?.state ? places.filter((place) => !(place.kind === 'state' && place.code === placeSet.state)) : places;
  return { places: own, ...(placeSet ? { placeSet } : {}), readings };
}

/** Whether two places are one county, one of them read from a city ("Austin → Travis County"). */
const sameCountyOfCity = (a: Place, b: Place): boolean =>
  a.kind === 'county' && b.kind === 'county' && a.fips === b.fips && (a.readAs !== undefined || b.readAs !== undefined);

/** Words that introduce a place ("in Toronto", "the population of Mars"). */
const PLACE_CUES = ['in', 'of', 'for', 'at', 'across', 'near'];

/**
 * Names no slot read where a place is written ("in Toronto", "of Mars"): places the gazetteer does
 * not know, which the answer must say before giving anything for another place.
 */
export function unknownPlaces(coverage: Coverage): string[] {
  const names: string[] = [];
  const words = coverage.words;
  for (const word of words) {
    const capitalised = /^[A-Z][a-z]/.test(word.text);
    if (!capitalised || word.index === 0 || coverage.isTaken(word.index) || isFunctionWord(word)) continue;
    const before = words[word.index - 1];
    if (!before || !PLACE_CUES.includes(before.normal)) continue;
    const run = [word];
    for (let next = words[word.index + 1]; next && /^[A-Z]/.test(next.text) && !coverage.isTaken(next.index); next = words[next.index + 1])
      run.push(next);
    coverage.take(
      run.map((part) => part.index),
      'places.unknown',
    );
    names.push(run.map((part) => part.text).join(' '));
  }
  return names;
}
