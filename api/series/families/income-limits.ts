// HUD's Section 8 income figures as yearly series of every county HUD lists whole: the area median
// family income (`income-limits/median/17031`) and the extremely low, very low and low income limits
// for households of 1 to 8 people (`income-limits/very-low/17031/4-person`), one value per fiscal
// year loaded (2022 is FY2022). A load holds each county's figures; a series is made when read
// (25 per county, about 79,000 in all). Counties HUD lists only by town (New England) have none.
import type { Queryable } from '../../platform/db/database.ts';
import { HUD_INCOME_LIMITS_URL } from '../../hmda-aggregates/reads.ts';
import {
  HOUSEHOLD_SIZES,
  HUD_INCOME_DATASET,
  INCOME_LEVELS,
  incomeYears,
  wholeCountyAreas,
  type IncomeArea,
} from '../../statistics/income.ts';
import { heldOnce } from '../../platform/held-once.ts';
import { MadeSeriesMap } from './made-series-map.ts';
import type { HeldSeries, SeriesFamily } from '../types.ts';

const PREFIX = 'income-limits/';
const SIZE_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'] as const;
/** The levels as ids write them (`very-low`), with the key the dataset stores them under. */
const LEVELS = INCOME_LEVELS.map((level) => ({ ...level, slug: level.key.replace('_', '-') }));
const MEASURES = ['median', ...LEVELS.flatMap((level) => HOUSEHOLD_SIZES.map((size) => `${level.slug}/${size}`))];

/**
 * One county's figures of every fiscal year loaded, oldest first: `figures` holds each year's
 * MEASURES in their order, whole dollars, NO_FIGURE where HUD gives none. Held as numbers, not one
 * object per area and year: the ~16,000 areas as objects held about 22 MiB for the process's life.
 */
interface IncomeCounty {
  fips: string;
  place: string;
  state: string;
  dates: readonly string[];
  periods: readonly string[];
  figures: Int32Array;
}

const NO_FIGURE = -1;

/** An area's figures in MEASURES' order. */
const figuresOf = (area: IncomeArea): number[] => [
  area.median,
  ...LEVELS.flatMap((level) => HOUSEHOLD_SIZES.map((size) => area.limits[level.key]?.[size - 1] ?? NO_FIGURE)),
];

/** `income-limits/very_low/17031/4` → `income-limits/very-low/17031/4-person`; undefined when not an income id. */
function canonical(lower: string): string | undefined {
  if (!lower.startsWith(PREFIX)) return undefined;
  const [level = '', fips = '', size, ...rest] = lower.slice(PREFIX.length).split('/');
  if (rest.length > 0 || !/^(\d{5}|\*)$/.test(fips)) return undefined;
  if (level === 'median') return size === undefined ? `${PREFIX}median/${fips}` : undefined;
  const slug = level.replace(/_/g, '-');
  const people = /^([1-8])(-(person|persons|people))?$/.exec(size ?? '')?.[1];
  if (!LEVELS.some((known) => known.slug === slug) || people === undefined) return undefined;
  return `${PREFIX}${slug}/${fips}/${people}-person`;
}

const idOf = (measure: string, fips: string) => {
  const [level, size] = measure.split('/');
  return size === undefined ? `${PREFIX}median/${fips}` : `${PREFIX}${level}/${fips}/${size}-person`;
};

function makeSeries(county: IncomeCounty, measure: string, asOf: string | null): HeldSeries {
  const [slug, size] = measure.split('/');
  const level = LEVELS.find((known) => known.slug === slug);
  const people = Number(size);
  const at = MEASURES.indexOf(measure);
  const values = county.periods.map((_period, year) => {
    const figure = county.figures[year * MEASURES.length + at] as number;
    return figure === NO_FIGURE ? null : figure;
  });
  const what = level
    ? `${level.title.replace(/^./, (first) => first.toUpperCase())}, household of ${SIZE_WORDS[people - 1]}`
    : 'Area median family income';
  return {
    id: idOf(measure, county.fips),
    title: `HUD ${what.replace(/^./, (first) => first.toLowerCase())}: ${county.place}`,
    family: 'income-limits',
    publisher: 'HUD',
    frequency: 'annual',
    units: 'US dollars',
    dates: county.dates,
    periods: county.periods,
    values,
    sourceUrl: HUD_INCOME_LIMITS_URL,
    sourceName: 'HUD Section 8 income limits',
    asOf,
    state: county.state,
    place: county.place,
    notes: [`${what} as HUD's Section 8 income-limit file gives it for the whole county; each value is a HUD fiscal year (2022 = FY2022).`],
  };
}

/** Series made at most this often while they are read again and again (a ranking, a chart). */
const MADE_SERIES_KEPT_BYTES = 2 * 1024 * 1024;

/** Every income measure of every county of one load, made when read. */
class IncomeSeriesMap extends MadeSeriesMap {
  private readonly counties: ReadonlyMap<string, IncomeCounty>;
  private readonly asOf: string | null;

  constructor(counties: ReadonlyMap<string, IncomeCounty>, asOf: string | null) {
    super({ keptBytes: MADE_SERIES_KEPT_BYTES, bytesPerSeries: 200 });
    this.counties = counties;
    this.asOf = asOf;
  }

  get size(): number {
    return this.counties.size * MEASURES.length;
  }

  /** The county and measure an id names, when this load holds them. */
  private read(id: string): { county: IncomeCounty; measure: string } | undefined {
    const [level = '', fips = '', size] = id.slice(PREFIX.length).split('/');
    const county = this.counties.get(fips);
    const measure = level === 'median' ? 'median' : `${level}/${size?.split('-')[0]}`;
    return county && MEASURES.includes(measure) && idOf(measure, fips) === id ? { county, measure } : undefined;
  }

  protected make(id: string): HeldSeries | undefined {
    const named = this.read(id);
    return named && makeSeries(named.county, named.measure, this.asOf);
  }

  has(id: string): boolean {
    return this.read(id) !== undefined;
  }

  *keys(): MapIterator<string> {
    for (const fips of this.counties.keys()) for (const measure of MEASURES) yield idOf(measure, fips);
  }

  idsLike(template: string): Iterable<string> | undefined {
    const lower = canonical(template);
    if (!lower?.includes('/*')) return undefined;
    return [...this.counties.keys()].map((fips) => lower.replace('*', fips));
  }
}

export function incomeLimitFamily(db: Queryable): SeriesFamily {
  return {
    id: 'income-limits',
    title: 'HUD area median family income and Section 8 income limits (30%, 50%, 80%; households of 1–8) by county, by fiscal year',
    publisher: 'HUD',
    frequency: 'annual',
    idPattern: `${PREFIX}median/<county FIPS>, ${PREFIX}<extremely-low|very-low|low>/<county FIPS>/<1-8>-person`,
    example: `${PREFIX}very-low/17031/4-person`,
    datasets: [HUD_INCOME_DATASET],
    claims: (lower) => lower.startsWith(PREFIX),
    canonical,
    async load([record]) {
      // One fiscal year read at a time, so the rows of one year are held while they are copied.
      const byCounty = new Map<string, { last: IncomeArea; years: number[]; figures: number[] }>();
      for (const year of await incomeYears(db))
        for (const area of await wholeCountyAreas(db, year)) {
          const fips = area.areaFips.slice(0, 5);
          const county = byCounty.get(fips) ?? { last: area, years: [], figures: [] };
          county.last = area;
          county.years.push(area.fiscalYear);
          county.figures.push(...figuresOf(area));
          byCounty.set(fips, county);
        }
      const once = heldOnce();
      const counties = new Map<string, IncomeCounty>();
      for (const [fips, { last, years, figures }] of byCounty)
        counties.set(fips, {
          fips,
          place: `${last.name}, ${last.state}`,
          state: last.state,
          // Counties with the same years (nearly all) share one array of each.
          dates: once.array(
            years.map((year) => `${year}-01-01`),
            once.string,
          ),
          periods: once.array(
            years.map((year) => String(year)),
            once.string,
          ),
          figures: Int32Array.from(figures),
        });
      return new IncomeSeriesMap(counties, record?.asOf ?? null);
    },
  };
}
