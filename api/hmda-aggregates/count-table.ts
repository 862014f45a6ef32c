// Every count the HMDA aggregate files carry, of every place and year, in one typed array: the
// series families compute any measure of the catalogue (a count of some codes of a dimension, or a
// ratio of two such counts) from it when a series is read, instead of holding every measure of
// every place as its own series. The county level is 3,300 places × 8 years × 72 codes: 7.6 MB as
// Int32 counts, where the 13 measures held as series took 10.6 MiB and the catalogue's 144 would
// take about 120.
import type { Queryable } from '../platform/db/database.ts';
import { giveWay } from '../platform/give-way.ts';
import { aggregateYears, aggregatesByGeo, countyAggregateDocuments, countyAggregatesByYear, type Dimensions } from './reads.ts';

/** Which codes of one dimension a count takes: all, those listed, or all but some. */
export interface CountRule {
  dimension: string;
  codes?: readonly string[] | undefined;
  except?: readonly string[] | undefined;
}

export interface CountTable {
  /** The data years, oldest first. */
  readonly years: readonly number[];
  /** The places: `US` first then states (level `state`), or county FIPS codes. */
  readonly geos: readonly string[];
  /** Years each place has figures for (a county with no record in a year has none that year). */
  yearsOf(geoIndex: number): number[];
  /** The sum of the counts a rule takes, for one place and year; undefined when the place has no figures that year. */
  sum(geoIndex: number, yearIndex: number, rule: CountRule): number | undefined;
}

const key = (dimension: string, code: string) => `${dimension}\u0000${code}`;

class Table implements CountTable {
  readonly years: readonly number[];
  readonly geos: readonly string[];
  private readonly columns: ReadonlyMap<string, number>;
  private readonly byDimension: ReadonlyMap<string, readonly [string, number][]>;
  private readonly width: number;
  private readonly counts: Int32Array;
  private readonly present: Uint8Array;

  constructor(years: readonly number[], geos: readonly string[], perYear: readonly ReadonlyMap<string, Dimensions>[]) {
    this.years = years;
    this.geos = geos;
    const columns = new Map<string, number>();
    const byDimension = new Map<string, [string, number][]>();
    for (const year of perYear)
      for (const dimensions of year.values())
        for (const [dimension, codes] of Object.entries(dimensions))
          for (const code of Object.keys(codes)) {
            if (columns.has(key(dimension, code))) continue;
            columns.set(key(dimension, code), columns.size);
            byDimension.set(dimension, [...(byDimension.get(dimension) ?? []), [code, columns.size - 1]]);
          }
    this.columns = columns;
    this.byDimension = byDimension;
    this.width = columns.size;
    this.counts = new Int32Array(geos.length * years.length * this.width);
    this.present = new Uint8Array(geos.length * years.length);
    const geoIndex = new Map(geos.map((geo, index) => [geo, index]));
    perYear.forEach((year, yearIndex) => {
      for (const [geo, dimensions] of year) {
        const index = geoIndex.get(geo);
        if (index === undefined) continue;
        const row = index * years.length + yearIndex;
        this.present[row] = 1;
        for (const [dimension, codes] of Object.entries(dimensions))
          for (const [code, count] of Object.entries(codes))
            this.counts[row * this.width + (columns.get(key(dimension, code)) as number)] = count;
      }
    });
  }

  yearsOf(geoIndex: number): number[] {
    return this.years.filter((_year, yearIndex) => this.present[geoIndex * this.years.length + yearIndex] === 1);
  }

  sum(geoIndex: number, yearIndex: number, rule: CountRule): number | undefined {
    const row = geoIndex * this.years.length + yearIndex;
    if (this.present[row] !== 1) return undefined;
    const base = row * this.width;
    let total = 0;
    if (rule.codes) {
      for (const code of rule.codes) {
        const column = this.columns.get(key(rule.dimension, code));
        if (column !== undefined) total += this.counts[base + column] as number;
      }
      return total;
    }
    for (const [code, column] of this.byDimension.get(rule.dimension) ?? [])
      if (!rule.except?.includes(code)) total += this.counts[base + column] as number;
    return total;
  }
}

/**
 * The counts of the nation and every state, DC and territory (`state`), or of every county
 * (`county`), for every year loaded. The national row is the one the dataset sums from every
 * state-level key; the placeholder key `NA` (state not reported) is not a place of its own.
 */
export async function readCountTable(db: Queryable, level: 'state' | 'county'): Promise<CountTable> {
  const years = await aggregateYears(db);
  const documents = level === 'county' ? await countyAggregateDocuments(db) : undefined;
  const perYear: Map<string, Dimensions>[] = [];
  const geos = new Set<string>();
  for (const year of years) {
    await giveWay();
    let byGeo: Map<string, Dimensions>;
    if (level === 'county') byGeo = documents?.get(year) ?? (await countyAggregatesByYear(db, year));
    else {
      byGeo = new Map([...(await aggregatesByGeo(db, year, 'nation'))].map(([, dimensions]) => ['US', dimensions] as const));
      for (const [geo, dimensions] of await aggregatesByGeo(db, year, 'state')) if (geo !== 'NA') byGeo.set(geo, dimensions);
    }
    for (const geo of byGeo.keys()) geos.add(geo);
    perYear.push(byGeo);
  }
  const ordered = [...geos].sort((a, b) => (a === 'US' ? -1 : b === 'US' ? 1 : a.localeCompare(b)));
  return new Table(years, ordered, perYear);
}
