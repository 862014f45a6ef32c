// Loan limits as series: each county's one-unit conforming (FHFA) and FHA (HUD) limit per calendar
// year since 2018, and the national one-unit figures since 1972 from the history file, all through
// the loan-limits capability's reads.
import type { Queryable } from '../../platform/db/database.ts';
import { titleCase } from '../../geo/county-names.ts';
import {
  COUNTIES_DATASET,
  LIMIT_DATASETS,
  LIMIT_PUBLISHERS,
  nationalLimitHistory,
  readCountyLimitSeries,
  readCountyNames,
  type LimitProgram,
} from '../../loan-limits/series-reads.ts';
import { giveWay } from '../../platform/give-way.ts';
import type { HeldSeries, SeriesFamily } from '../types.ts';

const yearDate = (year: number) => `${year}-01-01`;

/** Years between the first and the last that have no figure ("2020"), for the notes. */
function gaps(years: readonly number[]): number[] {
  const missing: number[] = [];
  for (let index = 1; index < years.length; index += 1) {
    for (let year = (years[index - 1] as number) + 1; year < (years[index] as number); year += 1) missing.push(year);
  }
  return missing;
}

const UNIT_WORDS = ['one', 'two', 'three', 'four'] as const;
/** `06037`, `06037/3-unit`: a county and, past one unit, the unit count. */
const COUNTY_ID = /^(\d{5})(?:\/([1-4])-units?)?$/;

export function countyLimitFamily(program: LimitProgram, db: Queryable): SeriesFamily {
  const prefix = `loan-limits/${program}/`;
  const label = program === 'fha' ? 'FHA' : 'conforming';
  const { publisher, page } = LIMIT_PUBLISHERS[program];
  const claimed = (lower: string) => (lower.startsWith(prefix) ? COUNTY_ID.exec(lower.slice(prefix.length)) : null);
  return {
    id: program === 'fha' ? 'loan-limits-fha' : 'loan-limits-conforming',
    title: `${program === 'fha' ? 'HUD FHA' : 'FHFA conforming'} loan limits by county, 1–4 units (annual, since 2018)`,
    publisher,
    frequency: 'annual',
    idPattern: `${prefix}<5-digit county FIPS> (one unit) or ${prefix}<FIPS>/<2|3|4>-unit`,
    example: `${prefix}06037`,
    datasets: [LIMIT_DATASETS[program], COUNTIES_DATASET],
    claims: (lower) => claimed(lower) !== null,
    canonical(lower) {
      const match = claimed(lower);
      if (!match) return undefined;
      const units = Number(match[2] ?? 1);
      return units === 1 ? `${prefix}${match[1]}` : `${prefix}${match[1]}/${units}-unit`;
    },
    async load() {
      const [limits, names] = await Promise.all([readCountyLimitSeries(db, program), readCountyNames(db)]);
      const held: HeldSeries[] = [];
      for (const series of limits.values()) {
        await giveWay();
        const county = names.get(series.fips);
        const name = county?.name ?? titleCase(series.sourceName);
        const missing = gaps(series.years);
        const lastYear = series.years.at(-1) as number;
        for (let units = 1; units <= 4; units += 1) {
          held.push({
            id: units === 1 ? `${prefix}${series.fips}` : `${prefix}${series.fips}/${units}-unit`,
            title: `${label === 'FHA' ? 'HUD FHA' : 'FHFA conforming'} loan limit, ${UNIT_WORDS[units - 1]} unit${units === 1 ? '' : 's'}: ${name}, ${series.state}`,
            family: program === 'fha' ? 'loan-limits-fha' : 'loan-limits-conforming',
            publisher,
            frequency: 'annual',
            units: 'US dollars',
            dates: series.years.map(yearDate),
            periods: series.years.map(String),
            values: series.limits.map((byUnits) => byUnits[units - 1] ?? null),
            sourceUrl: page,
            sourceName: `${publisher}, ${label} loan limits by county`,
            asOf: yearDate(lastYear),
            state: series.state,
            place: `${name}, ${series.state}`,
            notes: [
              `The ${label} limit for a ${units}-unit home in each calendar year (effective January 1).`,
              ...(missing.length > 0 ? [`No ${label} file is loaded for ${missing.join(', ')}.`] : []),
            ],
          });
        }
      }
      return held;
    },
  };
}

type NationalKind = 'conforming/baseline' | 'conforming/ceiling' | 'fha/floor' | 'fha/ceiling';
const NATIONAL: Record<NationalKind, { title: string; publisher: string }> = {
  'conforming/baseline': { title: 'National conforming loan limit (baseline), one unit', publisher: LIMIT_PUBLISHERS.conforming.publisher },
  'conforming/ceiling': {
    title: 'Conforming loan limit ceiling in high-cost areas, one unit',
    publisher: LIMIT_PUBLISHERS.conforming.publisher,
  },
  'fha/floor': { title: 'FHA national loan limit floor, one unit', publisher: LIMIT_PUBLISHERS.fha.publisher },
  'fha/ceiling': { title: 'FHA national loan limit ceiling, one unit', publisher: LIMIT_PUBLISHERS.fha.publisher },
};

export function nationalLimitFamily(): SeriesFamily {
  const ids = new Set(Object.keys(NATIONAL).map((kind) => `loan-limits/${kind}`));
  return {
    id: 'loan-limits-national',
    title: 'National one-unit loan limits (annual: conforming baseline since 1972, ceilings and FHA since 2008)',
    publisher: 'FHFA and HUD',
    frequency: 'annual',
    idPattern: 'loan-limits/conforming/<baseline|ceiling>, loan-limits/fha/<floor|ceiling>',
    example: 'loan-limits/conforming/baseline',
    datasets: [],
    claims: (lower) => ids.has(lower),
    canonical: (lower) => (ids.has(lower) ? lower : undefined),
    async load() {
      const history = nationalLimitHistory();
      const source = (key: string | undefined) => (key ? history.sources[key] : undefined);
      const held: HeldSeries[] = [];
      for (const kind of Object.keys(NATIONAL) as NationalKind[]) {
        const [program, figure] = kind.split('/') as ['conforming' | 'fha', 'baseline' | 'ceiling' | 'floor'];
        const entries =
          program === 'conforming'
            ? history.conforming.map((entry) => ({
                year: entry.year,
                value: figure === 'baseline' ? entry.baseline : entry.ceiling,
                source: figure === 'ceiling' ? (entry.ceiling_source ?? entry.source) : entry.source,
              }))
            : history.fha.map((entry) => ({
                year: entry.year,
                value: figure === 'floor' ? entry.floor : entry.ceiling,
                source: entry.source,
                computed: entry.computed,
              }));
        // The ceiling exists since 2008: earlier years are not a figure left empty, they have none.
        const kept = figure === 'ceiling' ? entries.filter((entry) => entry.value !== null) : entries;
        const cited = [...new Set(kept.filter((entry) => entry.value !== null).map((entry) => entry.source))].flatMap((key) => {
          const found = source(key);
          return found ? [{ url: found.url, name: found.title }] : [];
        });
        const computed: Record<string, string> = {};
        for (const entry of kept)
          if ('computed' in entry && typeof entry.computed === 'string') computed[String(entry.year)] = entry.computed;
        // The series is as of its last published year: a computed year is not the publisher's.
        const lastYear = kept.filter((entry) => entry.value !== null && computed[String(entry.year)] === undefined).at(-1)?.year;
        const empty = kept.filter((entry) => entry.value === null).map((entry) => entry.year);
        held.push({
          id: `loan-limits/${kind}`,
          title: NATIONAL[kind].title,
          family: 'loan-limits-national',
          publisher: NATIONAL[kind].publisher,
          frequency: 'annual',
          units: 'US dollars',
          dates: kept.map((entry) => yearDate(entry.year)),
          periods: kept.map((entry) => String(entry.year)),
          values: kept.map((entry) => entry.value),
          sourceUrl: cited.at(-1)?.url ?? LIMIT_PUBLISHERS[program].page,
          sourceName: cited.at(-1)?.name ?? NATIONAL[kind].publisher,
          asOf: lastYear === undefined ? null : yearDate(lastYear),
          otherSources: cited,
          notes: [
            `${history.units}, each calendar year (effective January 1). Each year's figure cites its source (listed in sources).`,
            ...(empty.length > 0 ? [`${empty.join(', ')}: no figure in the cited sources, so none is given (null).`] : []),
            ...Object.entries(computed).map(([year, method]) => `${year}: computed here, not published by HUD: ${method}.`),
          ],
          ...(Object.keys(computed).length > 0 ? { computed } : {}),
        });
      }
      return held;
    },
  };
}
