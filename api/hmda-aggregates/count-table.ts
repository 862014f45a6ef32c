// Every count the HMDA aggregate files carry, of every place and year, in one typed array: the
// series families compute any measure of the catalogue (a count of some codes of a dimension, or a
// ratio of two such counts) from it when a series is read, instead of holding every measure of
// every place as its own series. The county level is 3,300 places × 8 years × 72 codes: 7.6 MB as
// Int32 counts, where the 13 measures held as series took 10.6 MiB and the catalogue's 144 would
// take about 120.
import type { Queryable } from '../platform/db/database.ts';
import { giveWay } from '../platform/give-way.ts';
import { aggregateYears, aggregatesByGeo, countyAggregateDocument, countyAggregatesByYear, type Dimensions } from './reads.ts';

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

/** One place's counts of one year: column, count, column, count, … */
type Cells = Int32Array;

/**
 * Takes the years' counts one at a time and keeps each only as its cells, so that no year's parsed
 * objects outlive its turn: the county level parsed all at once held ~26,000 objects of objects.
 */
class TableBuilder {
  readonly columns = new Map<string, number>();
  readonly byDimension = new Map<string, [string, number][]>();
  readonly perYear: Map<string, Cells>[] = [];

  addYear(byGeo: ReadonlyMap<string, Dimensions>): void {
    const year = new Map<string, Cells>();
    for (const [geo, dimensions] of byGeo) {
      const cells: number[] = [];
      for (const [dimension, codes] of Object.entries(dimensions))
        for (const [code, count] of Object.entries(codes)) cells.push(this.column(dimension, code), count);
      year.set(geo, Int32Array.from(cells));
    }
    this.perYear.push(year);
  }

  private column(dimension: string, code: string): number {
    let column = this.columns.get(key(dimension, code));
    if (column === undefined) {
      column = this.columns.size;
      this.columns.set(key(dimension, code), column);
      this.byDimension.set(dimension, [...(this.byDimension.get(dimension) ?? []), [code, column]]);
    }
    return column;
  }
}

class Table implements CountTable {
  readonly years: readonly number[];
  readonly geos: readonly string[];
  private readonly columns: ReadonlyMap<string, number>;
  private readonly byDimension: ReadonlyMap<string, readonly [string, number][]>;
  private readonly width: number;
  private readonly counts: Int32Array;
  private readonly present: Uint8Array;

  constructor(years: readonly number[], geos: readonly string[], { columns, byDimension, perYear }: TableBuilder) {
    this.years = years;
    this.geos = geos;
    this.columns = columns;
    this.byDimension = byDimension;
    this.width = columns.size;
    this.counts = new Int32Array(geos.length * years.length * this.width);
    this.present = new Uint8Array(geos.length * years.length);
    const geoIndex = new Map(geos.map((geo, index) => [geo, index]));
    perYear.forEach((year, yearIndex) => {
      for (const [geo, cells] of year) {
        const index = geoIndex.get(geo);
        if (index === undefined) continue;
        const row = index * years.length + yearIndex;
        this.present[row] = 1;
        for (let cell = 0; cell < cells.length; cell += 2)
          this.counts[row * this.width + (cells[cell] as number)] = cells[cell + 1] as number;
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
  const builder = new TableBuilder();
  const geos = new Set<string>();
  for (const year of years) {
    await giveWay();
    let byGeo: Map<string, Dimensions>;
    // One year's document (3.3 MB) at a time: all eight in one answer grew the embedded
    // database's thread by 40-50 MiB, most of it for good (a WebAssembly memory does not shrink),
    // and the main heap by every year's parsed objects at once.
    if (level === 'county') byGeo = (await countyAggregateDocument(db, year)) ?? (await countyAggregatesByYear(db, year));
    else {
      byGeo = new Map([...(await aggregatesByGeo(db, year, 'nation'))].map(([, dimensions]) => ['US', dimensions] as const));
      for (const [geo, dimensions] of await aggregatesByGeo(db, year, 'state')) if (geo !== 'NA') byGeo.set(geo, dimensions);
    }
    for (const geo of byGeo.keys()) geos.add(geo);
    builder.addYear(byGeo);
  }
  const ordered = [...geos].sort((a, b) => (a === 'US' ? -1 : b === 'US' ? 1 : a.localeCompare(b)));
  return new Table(years, ordered, builder);
}
