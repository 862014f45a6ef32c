// HMDA aggregates as yearly series: records, applications, originations, denials and the denial
// and approval rates of the nation and of every state, DC and territory, through the HMDA
// aggregates' reads.
import type { Queryable } from '../../platform/db/database.ts';
import {
  HMDA_AGGREGATES_DATASET,
  HMDA_AGGREGATES_SOURCE,
  HMDA_DEFINITIONS,
  HMDA_MAPS_URL,
  decisionRates,
  hmdaPlaceName,
  readActionTakenByYear,
} from '../../hmda-aggregates/series-reads.ts';
import type { HeldSeries, SeriesFamily } from '../types.ts';

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Freely associated states the HMDA files list beside the territories, which the aggregates' labels do not name. */
const OTHER_PLACES: Record<string, string> = { FM: 'Federated States of Micronesia', PW: 'Palau' };
const placeOf = (code: string) => (code === 'US' ? 'United States' : (hmdaPlaceName(code) ?? OTHER_PLACES[code]));
const sum = (counts: Record<string, number>, codes?: readonly string[]) =>
  Object.entries(counts).reduce((total, [code, count]) => total + (codes === undefined || codes.includes(code) ? count : 0), 0);

const MEASURES: Record<string, { title: string; units: string; note: string; value: (counts: Record<string, number>) => number | null }> = {
  records: { title: 'HMDA records (applications, originations and purchased loans)', units: 'records', note: HMDA_DEFINITIONS.shares, value: (counts) => sum(counts) },
  applications: {
    title: 'Mortgage applications (HMDA records other than purchased loans)',
    units: 'applications',
    note: 'Applications = every HMDA record except purchased loans (action taken 6): originated, approved but not accepted, denied, withdrawn and incomplete applications, and preapproval requests.',
    value: (counts) => sum(counts) - (counts['6'] ?? 0),
  },
  originations: { title: 'Mortgages originated', units: 'loans', note: 'Originations = records with action taken 1 (loan originated).', value: (counts) => counts['1'] ?? 0 },
  denials: { title: 'Applications denied', units: 'applications', note: 'Denials = records with action taken 3 (application denied); denied preapproval requests (7) are not counted.', value: (counts) => counts['3'] ?? 0 },
  denial_rate: {
    title: 'Denial rate',
    units: 'percent',
    note: HMDA_DEFINITIONS.denial_rate,
    value: (counts) => {
      const rate = decisionRates(counts).denial;
      return rate === null ? null : round2(rate);
    },
  },
  approval_rate: {
    title: 'Approval rate',
    units: 'percent',
    note: HMDA_DEFINITIONS.approval_rate,
    value: (counts) => {
      const rate = decisionRates(counts).approval;
      return rate === null ? null : round2(rate);
    },
  },
};

export function hmdaFamily(db: Queryable): SeriesFamily {
  return {
    id: 'hmda',
    title: 'HMDA aggregates by year: applications, originations, denials and rates, nationally and by state',
    publisher: 'CFPB and FFIEC (Home Mortgage Disclosure Act data)',
    frequency: 'annual',
    idPattern: `hmda/<US or state code>/<${Object.keys(MEASURES).join('|')}>`,
    example: 'hmda/TX/denial_rate',
    datasets: [HMDA_AGGREGATES_DATASET],
    claims: (lower) => lower.startsWith('hmda/'),
    canonical(lower) {
      const [family, place = '', measure = '', ...rest] = lower.split('/');
      const code = place.toUpperCase();
      if (family !== 'hmda' || rest.length > 0 || !(measure in MEASURES) || !/^[A-Z]{2}$/.test(code)) return undefined;
      return `hmda/${code}/${measure}`;
    },
    async load([record]) {
      const counts = await readActionTakenByYear(db);
      const held: HeldSeries[] = [];
      for (const entry of counts.values()) {
        const place = placeOf(entry.geo) ?? entry.geo;
        for (const [measure, definition] of Object.entries(MEASURES)) {
          held.push({
            id: `hmda/${entry.geo}/${measure}`,
            title: `HMDA, ${place}: ${definition.title}`,
            family: 'hmda',
            publisher: 'CFPB and FFIEC',
            frequency: 'annual',
            units: definition.units,
            dates: entry.years.map((year) => `${year}-01-01`),
            periods: entry.years.map(String),
            values: entry.actions.map(definition.value),
            sourceUrl: HMDA_MAPS_URL,
            sourceName: HMDA_AGGREGATES_SOURCE,
            asOf: record?.asOf ?? null,
            ...(entry.geo === 'US' ? {} : { state: entry.geo }),
            notes: [
              `Activity years: each value covers the applications and loans of that calendar year, as lenders reported them. ${definition.note}`,
              ...(entry.geo === 'US' ? [HMDA_DEFINITIONS.nation] : []),
            ],
          });
        }
      }
      return held;
    },
  };
}
