// The catalogue service: the one catalogue of measures (./measures.ts) read for every face. A search
// takes words ("VA share Hawaii"), reads their places with the one gazetteer (api/geo/gazetteer.ts),
// ranks the measures by the rest (./ranking.ts) and answers the concrete series, best first, each
// with what it is, its coverage and its as-of date from the series service. REST's catalogue words
// (GET /series?query=), the MCP tool `find_series`, and /ask's model and reader go through it.
import type { SeriesService } from '../series/service.ts';
import { HttpError } from '../platform/errors.ts';
import { parseOrThrow } from '../platform/validation.ts';
import type { PreSerialized } from '../platform/pre-serialized.ts';
import type { Source } from '../platform/contract/sources.ts';
import type { CatalogueAnswer, CatalogueQuery } from '../series/contract.ts';
import { STATE_CODES, findState } from '../geo/states.ts';
import { placesIn, type CountyLister, type Place } from '../geo/gazetteer.ts';
import { catalogue, type MeasureTemplate, type PlaceKind } from './measures.ts';
import { indexTemplates, rankTemplates, tokens, type RankedTemplate } from './ranking.ts';
import { FFIEC_LAR_FIELDS_URL, codeAnswer, codesNamedIn } from './code-book.ts';
import { filerRanking, type FilerLister } from './filer-ranking.ts';
import { preSerialize } from '../platform/pre-serialized.ts';
import {
  CatalogueSearchQuerySchema,
  type CatalogueSearchAnswer,
  type CatalogueSearchQuery,
  type FoundPlace,
  type SeriesMatch,
} from './contract.ts';

export interface CatalogueService {
  /** Words in, matching series out, best first (validated like the tool's arguments). */
  search(input: unknown): Promise<CatalogueSearchAnswer>;
  /** Every measure template with its words and qualifiers, in the catalogue's order. */
  measures(): readonly MeasureTemplate[];
  /** The values each qualifier takes across the measures (`units` → 1, 2, 3, 4): what a question may ask for. */
  qualifierValues(): ReadonlyMap<string, ReadonlySet<string | number>>;
  /** The series id of a template for a place: `US`, a state code or a county FIPS (none for a national template). */
  resolve(template: string, place?: string): string;
  /** The places a text names, read by the one gazetteer. */
  places(text: string): Promise<Place[]>;
  /** GET /series: the series catalogue, its words (`query`) ranked by this catalogue. */
  seriesCatalogueJson(query: CatalogueQuery): Promise<PreSerialized<CatalogueAnswer>>;
}

const SLOT = /\{(place|state|county)\}/;

function placeOf(place: Place): FoundPlace {
  if (place.kind === 'nation') return { kind: 'nation', code: 'US', name: 'United States' };
  if (place.kind === 'state') return { kind: 'state', code: place.code, name: place.name };
  return { kind: 'county', code: place.fips, name: place.name, ...(place.readAs ? { read_as: place.readAs } : {}) };
}

/** A template's id for a place, or undefined when it does not exist for that kind of place. */
function fill(template: MeasureTemplate, place: FoundPlace | undefined): string | undefined {
  if (!SLOT.test(template.id)) return place === undefined || place.kind === 'nation' ? template.id : undefined;
  const kind = place?.kind ?? 'nation';
  if (!template.places.includes(kind)) return undefined;
  return template.id.replace(SLOT, place?.code ?? 'US');
}

/** The text without the places read in it, so their words are not read as a measure's. */
function withoutPlaces(text: string, places: readonly Place[]): string {
  let rest = text;
  for (const place of [...places].sort((a, b) => b.at - a.at))
    if (place.at >= 0 && place.end !== undefined) rest = `${rest.slice(0, place.at)} ${rest.slice(place.end)}`;
  return rest;
}

interface Candidate {
  id: string;
  ranked: RankedTemplate;
  place: FoundPlace | null;
  message?: string;
}

/** Every series the ranked measures stand for at the places asked (or the nation), best measure first. */
function candidates(ranking: readonly RankedTemplate[], places: readonly FoundPlace[], expandStates: boolean): Candidate[] {
  const found: Candidate[] = [];
  const add = (candidate: Candidate) => {
    if (!found.some((known) => known.id === candidate.id)) found.push(candidate);
  };
  for (const ranked of ranking) {
    const { template } = ranked;
    if (places.length === 0) {
      const national = fill(template, undefined);
      if (national !== undefined) add({ id: national, ranked, place: SLOT.test(template.id) ? placeOf({ kind: 'nation', at: 0 }) : null });
      else if (expandStates && template.places.includes('state'))
        for (const code of STATE_CODES) add({ id: template.id.replace(SLOT, code), ranked, place: stateOf(code) });
      else add({ id: template.id, ranked, place: null, message: needs(template) });
      continue;
    }
    for (const place of places) {
      const id = fill(template, place);
      if (id !== undefined) add({ id, ranked, place: SLOT.test(template.id) ? place : null });
    }
  }
  return found;
}

const stateOf = (code: string): FoundPlace => ({ kind: 'state', code, name: findState(code)?.name ?? code });

function needs(template: MeasureTemplate): string {
  const kinds = template.places.filter((kind): kind is Exclude<PlaceKind, 'nation'> => kind !== 'nation');
  const example = template.id.replace(SLOT, kinds[0] === 'county' ? '06037' : 'CA');
  return `Exists for each ${kinds.join(' and each ')}: put one in the id (e.g. ${example}), or rank them with the analysis tool (a '*' for the place).`;
}

/** Built from the series (coverage, as-of dates, residents), the county list the gazetteer reads and the HMDA filer list. */
export function createCatalogueService({
  series,
  counties,
  filers,
}: {
  series: SeriesService;
  counties: CountyLister;
  filers?: FilerLister;
}): CatalogueService {
  // The gazetteer reads the counties as it reads any module's services.
  const deps = { services: { series, loanLimits: counties } };
  const { templates } = catalogue();
  const index = indexTemplates(templates);
  const measureWords = new Set(templates.flatMap((template) => template.words.flatMap(tokens)));
  let populations: { held: unknown; byPlace: Map<string, number> } | undefined;

  /** Residents of each place, latest figure: the gazetteer tells counties of one name apart by them. */
  async function residents(): Promise<ReadonlyMap<string, number>> {
    try {
      const { series } = await deps.services.series.readFamily('population');
      if (populations?.held !== series) {
        const byPlace = new Map<string, number>();
        for (const [id, held] of series) {
          const value = held.values.at(-1);
          if (typeof value === 'number') byPlace.set(id.slice('population/'.length), value);
        }
        populations = { held: series, byPlace };
      }
      return populations.byPlace;
    } catch {
      return new Map(); // not loaded: counties of one name are told apart by their state only
    }
  }

  async function places(text: string): Promise<Place[]> {
    const read = await placesIn(text, { deps, populations: await residents() });
    // "VA", "US": a state code that is also a measure's word is read as the word (write "Virginia" for the state).
    return read.filter((place) => !(place.kind === 'state' && place.end - place.at === 2 && measureWords.has(place.code.toLowerCase())));
  }

  async function describe(candidate: Candidate, sources: Map<string, Source>): Promise<SeriesMatch | undefined> {
    const { template, matched } = candidate.ranked;
    const base = { template: template.id, kind: template.kind, units: template.unit, place: candidate.place, matched };
    // A match whose coverage is not read: the template's title, no dates, and why.
    const uncovered = (available: boolean, message: string): SeriesMatch => ({
      ...base,
      id: candidate.id,
      title: template.title,
      frequency: null,
      first_date: null,
      last_date: null,
      as_of: null,
      available,
      message,
    });
    if (candidate.message !== undefined) return uncovered(true, candidate.message);
    try {
      const info = await deps.services.series.info(candidate.id);
      if (!sources.has(info.source_url)) sources.set(info.source_url, { url: info.source_url, as_of: info.as_of, name: info.publisher });
      return {
        ...base,
        id: info.id,
        title: info.title,
        units: info.units,
        frequency: info.frequency,
        first_date: info.first_date,
        last_date: info.last_date,
        as_of: info.as_of,
        available: true,
      };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      if (error.status === 404) return undefined; // no figures for this place (a county without HMDA records)
      return uncovered(false, error.message);
    }
  }

  async function ranked(text: string, expandStates: boolean, statePlace?: string) {
    const found = await places(text);
    const foundPlaces = found.map(placeOf).filter((place, at, all) => all.findIndex((other) => other.code === place.code) === at);
    if (foundPlaces.length === 0 && statePlace) foundPlaces.push(stateOf(statePlace));
    const ranking = rankTemplates(withoutPlaces(text, found), index);
    // Only places named ("Los Angeles"): every measure of theirs, in the catalogue's order.
    const measures =
      ranking.ranked.length === 0 && ranking.unmatched.length === 0 && foundPlaces.length > 0
        ? templates.map((template) => ({ template, score: 0, matched: [] }))
        : ranking.ranked;
    return { found: foundPlaces, ranking, list: candidates(measures, foundPlaces, expandStates) };
  }

  async function search(query: CatalogueSearchQuery): Promise<CatalogueSearchAnswer> {
    const { found, ranking, list } = await ranked(query.query, false);
    const notes: string[] = [];
    const page: SeriesMatch[] = [];
    const sources = new Map<string, Source>();
    const codes = codesNamedIn(query.query).map(codeAnswer);
    if (codes.length > 0)
      sources.set(FFIEC_LAR_FIELDS_URL, { url: FFIEC_LAR_FIELDS_URL, as_of: null, name: 'FFIEC, public LAR data fields' });
    // A code's field may name an institution ("initially payable to your institution"): no filer list then.
    const filed = codes.length > 0 ? {} : await filerRanking(query.query, query.limit, filers);
    if (filed.source) sources.set(filed.source.url, filed.source);
    if (filed.note) notes.push(filed.note);
    let skipped = 0;
    for (const candidate of list.slice(query.offset)) {
      if (page.length >= query.limit) break;
      const match = await describe(candidate, sources);
      if (match) page.push(match);
      else skipped += 1;
    }
    if (list.length === 0 && ranking.ranked.length > 0)
      notes.push(
        `No measure matching these words exists for ${found.map((place) => place.name).join(' or ')}: ${[
          ...new Set(ranking.ranked.slice(0, 3).map(({ template }) => `${template.title} exists for ${template.places.join(', ')}`)),
        ].join('; ')}.`,
      );
    if (page.length === 0 && skipped > 0)
      notes.push(
        `These measures hold no figures for ${found.map((place) => place.name).join(' or ')} (HUD lists the New England counties by town, not whole; a county without HMDA records has no HMDA series).`,
      );
    if (ranking.ranked.length === 0 && codes.length === 0 && filed.lenders === undefined)
      notes.push(
        'No measure matches these words. The catalogue holds mortgage rates (Freddie Mac, Optimal Blue), rates on outstanding mortgages by state (FHFA), loan limits and HUD income limits by county, HMDA counts and shares (nation, state, county), population, and what HMDA codes mean ("denial reason 3").',
      );
    return {
      query: query.query,
      places: found,
      unmatched: ranking.unmatched,
      times: ranking.times,
      codes,
      ...(filed.lenders ? { lenders: filed.lenders } : {}),
      results: page,
      total: list.length - skipped,
      offset: query.offset,
      limit: query.limit,
      notes,
      sources: [...sources.values()],
    };
  }

  const qualifierValues = new Map<string, Set<string | number>>();
  for (const template of templates)
    for (const [name, value] of Object.entries(template.qualifiers))
      qualifierValues.set(name, (qualifierValues.get(name) ?? new Set()).add(value));

  return {
    search: (input) => search(parseOrThrow(CatalogueSearchQuerySchema, input ?? {}, 'query')),
    measures: () => templates,
    qualifierValues: () => qualifierValues,
    resolve(template, place) {
      const measure = templates.find((candidate) => candidate.id === template);
      if (!measure) throw new Error(`No measure ${template} in the catalogue.`);
      const id = fill(
        measure,
        place === undefined
          ? undefined
          : place === 'US'
            ? { kind: 'nation', code: 'US', name: 'United States' }
            : /^\d{5}$/.test(place)
              ? { kind: 'county', code: place, name: place }
              : stateOf(place.toUpperCase()),
      );
      if (id === undefined) throw new Error(`${template} does not exist for ${place ?? 'the nation'}.`);
      return id;
    },
    places,
    async seriesCatalogueJson(query) {
      if (query.query === undefined) return deps.services.series.catalogueJson(query);
      const { list } = await ranked(query.query, true, query.state);
      const page = await deps.services.series.catalogueJson(
        query,
        list.filter((candidate) => candidate.message === undefined).map((candidate) => candidate.id),
      );
      const filed = codesNamedIn(query.query).length > 0 ? {} : await filerRanking(query.query, query.limit, filers);
      if (!filed.lenders) return page;
      // The series page is cached as text; the filer list is added to it, the sheet among its sources.
      const answer = JSON.parse(page) as CatalogueAnswer;
      return preSerialize({ ...answer, lenders: filed.lenders, sources: [...answer.sources, filed.source!] });
    },
  };
}
