// HMDA aggregates as yearly series: records, applications, originations, denials, the denial and
// approval rates, and records by loan type and purpose, of the nation and of every state, DC and
// territory (`hmda/TX/...`) and of every county (`hmda/48201/...`), through the HMDA aggregates'
// reads.
import type { Queryable } from '../../platform/db/database.ts';
import {
  HMDA_AGGREGATES_DATASET,
  HMDA_AGGREGATES_SOURCE,
  HMDA_DEFINITIONS,
  HMDA_MAPS_URL,
  decisionRates,
  hmdaPlaceName,
  readCountsByYear,
  type SeriesDimensions,
} from '../../hmda-aggregates/series-reads.ts';
import { COUNTIES_DATASET, readCountyNames } from '../../loan-limits/series-reads.ts';
import { giveWay } from '../../platform/give-way.ts';
import { heldOnce, type HeldOnce } from '../../platform/held-once.ts';
import type { HeldSeries, SeriesFamily } from '../types.ts';

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Freely associated states the HMDA files list beside the territories, which the aggregates' labels do not name. */
const OTHER_PLACES: Record<string, string> = { FM: 'Federated States of Micronesia', PW: 'Palau' };
const placeOf = (code: string) => (code === 'US' ? 'United States' : (hmdaPlaceName(code) ?? OTHER_PLACES[code]));
const sum = (counts: Record<string, number>, codes?: readonly string[]) =>
  Object.entries(counts).reduce((total, [code, count]) => total + (codes === undefined || codes.includes(code) ? count : 0), 0);

interface Measure {
  title: string;
  units: string;
  note: string;
  value: (counts: SeriesDimensions) => number | null;
}

const byCode = (dimension: 'loanType' | 'loanPurpose', code: string, title: string, what: string): Measure => ({
  title,
  units: 'records',
  note: `${what}: records with ${dimension === 'loanType' ? 'loan type' : 'loan purpose'} ${code}, counted over every HMDA record (applications, originations and purchased loans), like the total \`records\`.`,
  value: (counts) => counts[dimension][code] ?? 0,
});

export const HMDA_MEASURES: Record<string, Measure> = {
  records: {
    title: 'HMDA records (applications, originations and purchased loans)',
    units: 'records',
    note: HMDA_DEFINITIONS.shares,
    value: (counts) => sum(counts.actionTaken),
  },
  applications: {
    title: 'Mortgage applications (HMDA records other than purchased loans)',
    units: 'applications',
    note: 'Applications = every HMDA record except purchased loans (action taken 6): originated, approved but not accepted, denied, withdrawn and incomplete applications, and preapproval requests.',
    value: (counts) => sum(counts.actionTaken) - (counts.actionTaken['6'] ?? 0),
  },
  originations: {
    title: 'Mortgages originated',
    units: 'loans',
    note: 'Originations = records with action taken 1 (loan originated).',
    value: (counts) => counts.actionTaken['1'] ?? 0,
  },
  denials: {
    title: 'Applications denied',
    units: 'applications',
    note: 'Denials = records with action taken 3 (application denied); denied preapproval requests (7) are not counted.',
    value: (counts) => counts.actionTaken['3'] ?? 0,
  },
  denial_rate: {
    title: 'Denial rate',
    units: 'percent',
    note: HMDA_DEFINITIONS.denial_rate,
    value: (counts) => {
      const rate = decisionRates(counts.actionTaken).denial;
      return rate === null ? null : round2(rate);
    },
  },
  approval_rate: {
    title: 'Approval rate',
    units: 'percent',
    note: HMDA_DEFINITIONS.approval_rate,
    value: (counts) => {
      const rate = decisionRates(counts.actionTaken).approval;
      return rate === null ? null : round2(rate);
    },
  },
  conventional_records: byCode('loanType', '1', 'Conventional loan records', 'Conventional'),
  fha_records: byCode('loanType', '2', 'FHA loan records', 'FHA-insured'),
  va_records: byCode('loanType', '3', 'VA loan records', 'VA-guaranteed'),
  usda_records: byCode('loanType', '4', 'USDA (FSA/RHS) loan records', 'USDA Rural Housing Service or Farm Service Agency'),
  purchase_records: byCode('loanPurpose', '1', 'Home purchase records', 'Home purchase'),
  refinance_records: byCode('loanPurpose', '31', 'Refinancing records', 'Refinancing'),
  cash_out_refinance_records: byCode('loanPurpose', '32', 'Cash-out refinancing records', 'Cash-out refinancing'),
};

/** What every series of one place shares: its name, its years and where its figures come from. */
interface HmdaPlace {
  name: string;
  state: string | undefined;
  family: 'hmda' | 'hmda-county';
  dates: readonly string[];
  periods: readonly string[];
  asOf: string | null;
  notes: Record<string, readonly string[]>;
}

/**
 * One measure of one place. The county family holds 43,199 of these on the mirror's data (3,323
 * places × 13 measures) for as long as its load is current. As plain objects, with every field their
 * own and their titles built ahead, one load took 18.5 MiB of the main heap; as these, 10.6 MiB. A
 * series keeps its id, its values and two shared references: what every series of its place or
 * measure says alike comes from those, and the title is built when it is read (a catalogue page, a
 * search, an answer).
 */
class HmdaSeries implements HeldSeries {
  readonly id: string;
  readonly values: (number | null)[];
  private readonly where: HmdaPlace;
  private readonly measure: string;
  constructor(id: string, values: (number | null)[], where: HmdaPlace, measure: string) {
    this.id = id;
    this.values = values;
    this.where = where;
    this.measure = measure;
  }
  get title(): string {
    return `HMDA, ${this.where.name}: ${HMDA_MEASURES[this.measure]!.title}`;
  }
  get family(): 'hmda' | 'hmda-county' {
    return this.where.family;
  }
  get publisher(): string {
    return 'CFPB and FFIEC';
  }
  get frequency(): 'annual' {
    return 'annual';
  }
  get units(): string {
    return HMDA_MEASURES[this.measure]!.units;
  }
  get dates(): readonly string[] {
    return this.where.dates;
  }
  get periods(): readonly string[] {
    return this.where.periods;
  }
  get sourceUrl(): string {
    return HMDA_MAPS_URL;
  }
  get sourceName(): string {
    return HMDA_AGGREGATES_SOURCE;
  }
  get asOf(): string | null {
    return this.where.asOf;
  }
  get state(): string | undefined {
    return this.where.state;
  }
  get place(): string {
    return this.where.name;
  }
  get notes(): readonly string[] {
    return this.where.notes[this.measure]!;
  }
}

function heldSeries(
  once: HeldOnce,
  geo: string,
  name: string,
  years: number[],
  counts: SeriesDimensions[],
  asOf: string | null,
  family: 'hmda' | 'hmda-county',
  state: string | undefined,
): HeldSeries[] {
  const where: HmdaPlace = {
    name,
    state,
    family,
    // Places with the same years (nearly all) share one array of each: ../share-repeats.ts does
    // this for the other families, whose series hold their own fields.
    dates: once.array(
      years.map((year) => `${year}-01-01`),
      once.string,
    ),
    periods: once.array(years.map(String), once.string),
    asOf,
    notes: geo === 'US' ? NATION_NOTES : PLACE_NOTES,
  };
  return Object.entries(HMDA_MEASURES).map(
    ([measure, definition]) => new HmdaSeries(`hmda/${geo}/${measure}`, counts.map(definition.value), where, measure),
  );
}

/** Each measure's notes, one array shared by every place's series (tens of thousands of them). */
const notesOf = (nation: boolean): Record<string, readonly string[]> =>
  Object.fromEntries(
    Object.entries(HMDA_MEASURES).map(([measure, definition]) => [
      measure,
      Object.freeze([
        `Activity years: each value covers the applications and loans of that calendar year, as lenders reported them. ${definition.note}`,
        ...(nation ? [HMDA_DEFINITIONS.nation] : []),
      ]),
    ]),
  );
const PLACE_NOTES = notesOf(false);
const NATION_NOTES = notesOf(true);

function canonicalIn(lower: string, geoPattern: RegExp): string | undefined {
  const [family, place = '', measure = '', ...rest] = lower.split('/');
  if (family !== 'hmda' || rest.length > 0 || !(measure in HMDA_MEASURES) || !geoPattern.test(place)) return undefined;
  return `hmda/${place.toUpperCase()}/${measure}`;
}

export function hmdaFamily(db: Queryable): SeriesFamily {
  return {
    id: 'hmda',
    title: 'HMDA aggregates by year: applications, originations, denials, rates and loan types, nationally and by state',
    publisher: 'CFPB and FFIEC (Home Mortgage Disclosure Act data)',
    frequency: 'annual',
    idPattern: `hmda/<US or state code>/<${Object.keys(HMDA_MEASURES).join('|')}>`,
    example: 'hmda/TX/denial_rate',
    datasets: [HMDA_AGGREGATES_DATASET],
    claims: (lower) => /^hmda\/[a-z]{2}\//.test(lower),
    canonical: (lower) => canonicalIn(lower, /^[a-z]{2}$/),
    async load([record]) {
      const counts = await readCountsByYear(db, 'state');
      const once = heldOnce();
      const held: HeldSeries[] = [];
      for (const entry of counts.values()) {
        await giveWay();
        held.push(
          ...heldSeries(
            once,
            entry.geo,
            placeOf(entry.geo) ?? entry.geo,
            entry.years,
            entry.counts,
            record?.asOf ?? null,
            'hmda',
            entry.geo === 'US' ? undefined : entry.geo,
          ),
        );
      }
      return held;
    },
  };
}

export function hmdaCountyFamily(db: Queryable): SeriesFamily {
  return {
    id: 'hmda-county',
    title: 'HMDA aggregates by year for every county: applications, originations, denials, rates and loan types',
    publisher: 'CFPB and FFIEC (Home Mortgage Disclosure Act data)',
    frequency: 'annual',
    idPattern: `hmda/<5-digit county FIPS>/<${Object.keys(HMDA_MEASURES).join('|')}>`,
    example: 'hmda/17031/originations',
    datasets: [HMDA_AGGREGATES_DATASET, COUNTIES_DATASET],
    claims: (lower) => /^hmda\/\d{5}\//.test(lower),
    canonical: (lower) => canonicalIn(lower, /^\d{5}$/),
    async load([record]) {
      const [counts, names] = await Promise.all([readCountsByYear(db, 'county'), readCountyNames(db)]);
      const once = heldOnce();
      const held: HeldSeries[] = [];
      for (const entry of counts.values()) {
        await giveWay(); // thousands of counties, each a dozen series
        const county = names.get(entry.geo);
        const place = county ? `${county.name}, ${county.state}` : `county ${entry.geo}`;
        held.push(...heldSeries(once, entry.geo, place, entry.years, entry.counts, record?.asOf ?? null, 'hmda-county', county?.state));
      }
      return held;
    },
  };
}
