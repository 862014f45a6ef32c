// HMDA aggregates as yearly series: every measure of the catalogue's HMDA section (records,
// applications, originations, denials, the denial and approval rates, and a count and a share of
// records for every code of every dimension the files carry: action taken, loan type, purpose, lien,
// units, construction method, loan product, dwelling category, sex, race, ethnicity, age), of the
// nation and of every state, DC and territory (`hmda/TX/...`) and of every county
// (`hmda/48201/...`). A load holds the counts (../../hmda-aggregates/count-table.ts); a series is made
// from them when it is read.
import type { Queryable } from '../../platform/db/database.ts';
import {
  HMDA_AGGREGATES_DATASET,
  HMDA_AGGREGATES_SOURCE,
  HMDA_DEFINITIONS,
  HMDA_MAPS_URL,
  hmdaPlaceName,
  readCountTable,
  type CountTable,
} from '../../hmda-aggregates/series-reads.ts';
import { COUNTIES_DATASET, readCountyNames } from '../../loan-limits/series-reads.ts';
import { heldOnce, type HeldOnce } from '../../platform/held-once.ts';
import { MadeSeriesMap } from './made-series-map.ts';
import { catalogue, type HmdaMeasure } from '../../catalogue/measures.ts';
import type { HeldSeries, SeriesFamily } from '../types.ts';

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Freely associated states the HMDA files list beside the territories, which the aggregates' labels do not name. */
const OTHER_PLACES: Record<string, string> = { FM: 'Federated States of Micronesia', PW: 'Palau' };
const placeOf = (code: string) => (code === 'US' ? 'United States' : (hmdaPlaceName(code) ?? OTHER_PLACES[code] ?? code));

/** The HMDA measures, by the last segment of their ids, in the catalogue's order. */
const measures = (): ReadonlyMap<string, HmdaMeasure> => catalogue().hmda;

/** Other names people write for a measure: `va` for `va_records`, `va_percent` for `va_share`. */
function measureKey(written: string): string | undefined {
  const known = measures();
  for (const candidate of [written, `${written}_records`, written.replace(/_(percent|pct|percentage)$/, '_share')])
    if (known.has(candidate)) return candidate;
  return undefined;
}

/** What every series of one place shares: its name, its years and where its figures come from. */
interface HmdaPlace {
  geo: string;
  index: number;
  name: string;
  state: string | undefined;
  dates: readonly string[];
  periods: readonly string[];
  /** Positions of the place's years in the table's years. */
  yearIndexes: readonly number[];
}

/** Each measure's notes, one array shared by every place's series. */
function notesOf(measure: HmdaMeasure, nation: boolean): readonly string[] {
  return Object.freeze([
    `Activity years: each value covers the applications and loans of that calendar year, as lenders reported them. ${measure.note}`,
    ...(nation ? [HMDA_DEFINITIONS.nation] : []),
  ]);
}

function valueOf(table: CountTable, place: HmdaPlace, yearIndex: number, measure: HmdaMeasure): number | null {
  const { formula } = measure;
  if (formula.kind === 'count') return table.sum(place.index, yearIndex, formula.rule) ?? null;
  const part = table.sum(place.index, yearIndex, formula.part);
  const whole = table.sum(place.index, yearIndex, formula.whole);
  return part === undefined || whole === undefined || whole === 0 ? null : round2((part / whole) * 100);
}

/** One measure of one place, made from the counts when read. */
function makeSeries(
  table: CountTable,
  place: HmdaPlace,
  measure: HmdaMeasure,
  family: 'hmda' | 'hmda-county',
  asOf: string | null,
  notes: readonly string[],
): HeldSeries {
  return {
    id: `hmda/${place.geo}/${measure.key}`,
    title: `HMDA, ${place.name}: ${measure.title}`,
    family,
    publisher: 'CFPB and FFIEC',
    frequency: 'annual',
    units: measure.unit,
    dates: place.dates,
    periods: place.periods,
    values: place.yearIndexes.map((yearIndex) => valueOf(table, place, yearIndex, measure)),
    sourceUrl: HMDA_MAPS_URL,
    sourceName: HMDA_AGGREGATES_SOURCE,
    asOf,
    ...(place.state === undefined ? {} : { state: place.state }),
    place: place.name,
    notes,
  };
}

/** Series made at most this often while they are read again and again (a cross-section, a chart). */
const MADE_SERIES_KEPT_BYTES = 4 * 1024 * 1024;

/**
 * Every measure of every place of one load, as a map of series that are made when read. A series
 * read again while it is kept is the same object, so an answer computed from it is still known to
 * be current.
 */
class HmdaSeriesMap extends MadeSeriesMap {
  private readonly places: ReadonlyMap<string, HmdaPlace>;
  private readonly notes = new Map<string, readonly string[]>();
  private readonly table: CountTable;
  private readonly family: 'hmda' | 'hmda-county';
  private readonly asOf: string | null;

  constructor(table: CountTable, places: readonly HmdaPlace[], family: 'hmda' | 'hmda-county', asOf: string | null) {
    super({ keptBytes: MADE_SERIES_KEPT_BYTES, bytesPerSeries: 160 });
    this.table = table;
    this.family = family;
    this.asOf = asOf;
    this.places = new Map(places.map((place) => [place.geo, place]));
  }

  get size(): number {
    return this.places.size * measures().size;
  }

  protected make(id: string): HeldSeries | undefined {
    const [, geo = '', key = ''] = id.split('/');
    const place = this.places.get(geo);
    const measure = measures().get(key);
    if (!place || !measure || id !== `hmda/${geo}/${key}`) return undefined;
    const notesKey = `${geo === 'US' ? 'nation' : 'place'}:${key}`;
    let notes = this.notes.get(notesKey);
    if (!notes) this.notes.set(notesKey, (notes = notesOf(measure, geo === 'US')));
    return makeSeries(this.table, place, measure, this.family, this.asOf, notes);
  }

  has(id: string): boolean {
    const [, geo = '', key = ''] = id.split('/');
    return this.places.has(geo) && measures().has(key) && id === `hmda/${geo}/${key}`;
  }

  *keys(): MapIterator<string> {
    yield* this.keysFrom(0);
  }

  *keysFrom(offset: number): Generator<string> {
    const keys = [...measures().keys()];
    const geos = [...this.places.keys()];
    for (let index = offset; index < geos.length * keys.length; index += 1)
      yield `hmda/${geos[Math.floor(index / keys.length)] as string}/${keys[index % keys.length] as string}`;
  }

  idsLike(template: string): Iterable<string> | undefined {
    const [family, slot, written = '', ...rest] = template.split('/');
    const key = measureKey(written);
    if (family !== 'hmda' || slot !== '*' || rest.length > 0 || key === undefined) return undefined;
    return [...this.places.keys()].map((geo) => `hmda/${geo}/${key}`);
  }
}

function canonicalIn(lower: string, geoPattern: RegExp): string | undefined {
  const [family, place = '', written = '', ...rest] = lower.split('/');
  const key = measureKey(written);
  if (family !== 'hmda' || rest.length > 0 || key === undefined || !geoPattern.test(place)) return undefined;
  return `hmda/${place.toUpperCase()}/${key}`;
}

function placesOf(once: HeldOnce, table: CountTable, name: (geo: string) => { name: string; state: string | undefined }): HmdaPlace[] {
  return table.geos.map((geo, index) => {
    const years = table.yearsOf(index);
    // Places with the same years (nearly all) share one array of each.
    return {
      geo,
      index,
      ...name(geo),
      dates: once.array(
        years.map((year) => `${year}-01-01`),
        once.string,
      ),
      periods: once.array(years.map(String), once.string),
      yearIndexes: once.array(years.map((year) => table.years.indexOf(year))),
    };
  });
}

const MEASURES_TEXT = 'any measure of the catalogue, e.g. records, originations, denial_rate, fha_records, va_share, female_records';

export function hmdaFamily(db: Queryable): SeriesFamily {
  return {
    id: 'hmda',
    title:
      'HMDA aggregates by year, nationally and by state: records, applications, originations, denials, rates, and every count the files carry (loan type, purpose, lien, units, sex, race, ethnicity, age…) with its share',
    publisher: 'CFPB and FFIEC (Home Mortgage Disclosure Act data)',
    frequency: 'annual',
    idPattern: `hmda/<US or state code>/<measure>: ${MEASURES_TEXT}`,
    example: 'hmda/TX/denial_rate',
    datasets: [HMDA_AGGREGATES_DATASET],
    claims: (lower) => /^hmda\/[a-z]{2}\//.test(lower),
    canonical: (lower) => canonicalIn(lower, /^[a-z]{2}$/),
    async load([record]) {
      const table = await readCountTable(db, 'state');
      const places = placesOf(heldOnce(), table, (geo) => ({ name: placeOf(geo), state: geo === 'US' ? undefined : geo }));
      return new HmdaSeriesMap(table, places, 'hmda', record?.asOf ?? null);
    },
  };
}

export function hmdaCountyFamily(db: Queryable): SeriesFamily {
  return {
    id: 'hmda-county',
    title: 'HMDA aggregates by year for every county: the same measures as the national and state ones',
    publisher: 'CFPB and FFIEC (Home Mortgage Disclosure Act data)',
    frequency: 'annual',
    idPattern: `hmda/<5-digit county FIPS>/<measure>: ${MEASURES_TEXT}`,
    example: 'hmda/17031/originations',
    datasets: [HMDA_AGGREGATES_DATASET, COUNTIES_DATASET],
    claims: (lower) => /^hmda\/\d{5}\//.test(lower),
    canonical: (lower) => canonicalIn(lower, /^\d{5}$/),
    async load([record]) {
      const [table, names] = await Promise.all([readCountTable(db, 'county'), readCountyNames(db)]);
      const places = placesOf(heldOnce(), table, (fips) => {
        const county = names.get(fips);
        return { name: county ? `${county.name}, ${county.state}` : `county ${fips}`, state: county?.state };
      });
      return new HmdaSeriesMap(table, places, 'hmda-county', record?.asOf ?? null);
    },
  };
}
