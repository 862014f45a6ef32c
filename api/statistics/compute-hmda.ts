// Statistics from the official HMDA aggregates: market overview, loan-type shares and borrower
// profile for the latest year loaded (and changes from the year before). Shares are of all records
// unless the label says "where reported".
import type { Queryable } from '../platform/db/database.ts';
import { STATES } from '../geo/states.ts';
import {
  HMDA_AGGREGATES_DATASET,
  HMDA_MAPS_URL,
  aggregateYears,
  aggregatesByGeo,
  decisionRates,
  total,
  type Dimensions,
} from '../hmda-aggregates/reads.ts';
import { datasetInfo } from './inputs.ts';
import { count, percent, points, signedPercent, whole, type Category, type Statistic } from './types.ts';

const NAMES = new Map<string, string>(STATES.map((state) => [state.code, state.name]));

/** The records of a dimension left after dropping the `exclude` codes: a share's denominator. */
function reported(dimensions: Dimensions, dimension: string, exclude: readonly string[] = []): number {
  const counts = dimensions[dimension] ?? {};
  return total(counts) - exclude.reduce((sum, code) => sum + (counts[code] ?? 0), 0);
}

function share(dimensions: Dimensions, dimension: string, codes: readonly string[], exclude: readonly string[] = []): number {
  const counts = dimensions[dimension] ?? {};
  const denominator = reported(dimensions, dimension, exclude);
  const numerator = codes.reduce((sum, code) => sum + (counts[code] ?? 0), 0);
  return denominator > 0 ? (numerator / denominator) * 100 : 0;
}

/** Every geography the national figures sum: what "all records" means in each population. */
const EVERYWHERE = 'nationwide (the 50 states, DC, the territories and records with no state reported)';

/** The 50 states and DC ranked by a value, highest first. */
function topState(states: Map<string, Dimensions>, value: (dimensions: Dimensions) => number): { code: string; value: number } {
  const ranked = STATES.map((state) => ({ code: state.code, value: value(states.get(state.code) ?? {}) })).sort(
    (a, b) => b.value - a.value || a.code.localeCompare(b.code),
  );
  return ranked[0] as { code: string; value: number };
}

export async function hmdaStatistics(db: Queryable): Promise<Statistic[]> {
  const years = await aggregateYears(db);
  const info = await datasetInfo(db, HMDA_AGGREGATES_DATASET);
  const year = years.at(-1);
  if (year === undefined || !info) return [];
  const previous = years.includes(year - 1) ? year - 1 : undefined;
  const nation = (await aggregatesByGeo(db, year, 'nation')).get('US') ?? {};
  const prior = previous === undefined ? undefined : (await aggregatesByGeo(db, previous, 'nation')).get('US');
  const states = await aggregatesByGeo(db, year, 'state');
  const stats: Statistic[] = [];
  const add = (category: Category, id: string, numeric: number, value: string, label: string, headline: string, population: string) =>
    stats.push({
      id,
      category,
      value,
      label,
      headline,
      data_year: year,
      population,
      source_url: HMDA_MAPS_URL,
      numeric_value: numeric,
      as_of: info.asOf,
    });

  // Market overview.
  const records = total(nation.actionTaken);
  const originated = nation.actionTaken?.['1'] ?? 0;
  const rates = decisionRates(nation.actionTaken ?? {});
  const allRecords = `All ${whole(records)} HMDA records of ${year} (applications, originations and purchased loans, every action taken) ${EVERYWHERE}.`;
  add(
    'market_overview',
    `hmda_records_${year}`,
    records,
    count(records),
    `HMDA records reported nationwide in ${year}`,
    `Lenders reported ${count(records)} mortgage applications, originations and purchased loans under HMDA in ${year}.`,
    allRecords,
  );
  add(
    'market_overview',
    `originations_${year}`,
    originated,
    count(originated),
    `Mortgage loans originated in ${year} (HMDA)`,
    `${count(originated)} mortgage loans were originated in ${year}, per the official HMDA aggregates.`,
    `HMDA records of ${year} with action taken 1 (loan originated), out of all ${whole(records)} records ${EVERYWHERE}.`,
  );
  if (prior) {
    const before = prior.actionTaken?.['1'] ?? 0;
    const change = ((originated - before) / before) * 100;
    add(
      'market_overview',
      `originations_change_${year}`,
      change,
      signedPercent(change),
      `Change in originations, ${previous} to ${year}`,
      `Originations ${change >= 0 ? 'rose' : 'fell'} ${percent(Math.abs(change))} from ${count(before)} in ${previous} to ${count(originated)} in ${year}.`,
      `Loans originated (action taken 1) in the HMDA records of ${previous} (${whole(before)}) and ${year} (${whole(originated)}), ${EVERYWHERE}.`,
    );
  }
  if (rates.approval !== null && rates.denial !== null) {
    const decided = ['1', '2', '3'].reduce((sum, code) => sum + (nation.actionTaken?.[code] ?? 0), 0);
    const decidedPopulation =
      `The ${whole(decided)} decided applications of ${year} ${EVERYWHERE}: action taken 1 (originated), 2 (approved, not accepted) or 3 (denied); ` +
      'withdrawn and incomplete applications, purchased loans and preapproval requests (4–8) are left out.';
    add(
      'market_overview',
      `approval_rate_${year}`,
      rates.approval,
      percent(rates.approval),
      `National approval rate, ${year} (originated + approved ÷ decided applications)`,
      `${percent(rates.approval)} of decided mortgage applications were approved in ${year} (originated or approved but not accepted, out of those plus denials).`,
      decidedPopulation,
    );
    add(
      'market_overview',
      `denial_rate_${year}`,
      rates.denial,
      percent(rates.denial),
      `National denial rate, ${year} (denied ÷ decided applications)`,
      `Lenders denied ${percent(rates.denial)} of decided mortgage applications in ${year}.`,
      decidedPopulation,
    );
  }
  const largest = topState(states, (dimensions) => total(dimensions.actionTaken));
  add(
    'market_overview',
    `largest_state_market_${year}`,
    largest.value,
    NAMES.get(largest.code) ?? largest.code,
    `State with the most HMDA records in ${year}`,
    `${NAMES.get(largest.code)} had the most HMDA records in ${year}: ${count(largest.value)}, ${percent((largest.value / records) * 100)} of the national total.`,
    `The HMDA records of ${year} of each of the 50 states and DC (territories and records with no state reported are not ranked); the share is of all ${whole(records)} records ${EVERYWHERE}.`,
  );
  const purchase = share(nation, 'loanPurpose', ['1']);
  add(
    'market_overview',
    `home_purchase_share_${year}`,
    purchase,
    percent(purchase),
    `Share of HMDA records for home purchase, ${year}`,
    `${percent(purchase)} of HMDA records in ${year} were for home purchase.`,
    allRecords,
  );
  const refinance = share(nation, 'loanPurpose', ['31', '32']);
  add(
    'market_overview',
    `refinance_share_${year}`,
    refinance,
    percent(refinance),
    `Share of HMDA records for refinancing (incl. cash-out), ${year}`,
    `Refinancing, including cash-out refinancing, accounted for ${percent(refinance)} of HMDA records in ${year}.`,
    allRecords,
  );
  const peak = { year: 0, records: 0 };
  for (const candidate of years) {
    const value = total((await aggregatesByGeo(db, candidate, 'nation')).get('US')?.actionTaken);
    if (value > peak.records) Object.assign(peak, { year: candidate, records: value });
  }
  stats.push({
    id: 'hmda_records_peak_year',
    category: 'market_overview',
    value: String(peak.year),
    label: `Year with the most HMDA records, ${years[0]}–${year}`,
    headline: `${peak.year} saw the most HMDA records of ${years[0]}–${year}: ${count(peak.records)}, against ${count(records)} in ${year}.`,
    data_year: peak.year,
    population: `All HMDA records of each year ${years[0]}–${year} ${EVERYWHERE}.`,
    source_url: HMDA_MAPS_URL,
    numeric_value: peak.records,
    as_of: info.asOf,
  });

  // Loan types (shares of all records).
  const types: [string, string, string][] = [
    ['1', 'conventional', 'Conventional'],
    ['2', 'fha', 'FHA'],
    ['3', 'va', 'VA'],
    ['4', 'usda', 'USDA (RHS/FSA)'],
  ];
  for (const [code, key, name] of types) {
    const value = share(nation, 'loanType', [code]);
    add(
      'loan_types',
      `${key}_share_${year}`,
      value,
      percent(value),
      `${name} share of HMDA records, ${year}`,
      `${name} loans made up ${percent(value)} of HMDA applications and loans in ${year}.`,
      allRecords,
    );
  }
  if (prior) {
    const change = share(nation, 'loanType', ['2']) - share(prior, 'loanType', ['2']);
    add(
      'loan_types',
      `fha_share_change_${year}`,
      change,
      points(change, 1),
      `Change in FHA share of HMDA records, ${previous} to ${year}`,
      `FHA's share of HMDA records moved ${points(change, 1)} (percentage points) from ${previous} to ${year}.`,
      `All HMDA records of ${previous} (${whole(total(prior.actionTaken))}) and of ${year} (${whole(records)}) ${EVERYWHERE}.`,
    );
  }
  for (const [code, key, name] of [
    ['2', 'fha', 'FHA'],
    ['3', 'va', 'VA'],
  ] as const) {
    const top = topState(states, (dimensions) => share(dimensions, 'loanType', [code]));
    add(
      'loan_types',
      `highest_${key}_share_state_${year}`,
      top.value,
      NAMES.get(top.code) ?? top.code,
      `State with the highest ${name} share, ${year}`,
      `${NAMES.get(top.code)} had the highest ${name} share of HMDA records among the states and DC in ${year}: ${percent(top.value)}.`,
      `The HMDA records of ${year} of each of the 50 states and DC, each state's share of its own records (${NAMES.get(top.code)}: ${whole(total(states.get(top.code)?.loanType))}).`,
    );
  }

  // Borrower profile (shares where the attribute was reported).
  const profile: [string, string, string, string[], string[], string][] = [
    [
      'joint_applicants_share',
      'sex',
      'Joint applications',
      ['Joint'],
      ['Sex Not Available'],
      'were joint applications (two or more applicants of different sexes)',
    ],
    [
      'female_applicants_share',
      'sex',
      'Female sole or primary applicants',
      ['Female'],
      ['Sex Not Available'],
      'had a female applicant without a male co-applicant',
    ],
    ['applicants_under_35_share', 'age', 'Applicants under 35', ['<25', '25-34'], ['8888'], 'had an applicant under 35'],
    ['applicants_65_plus_share', 'age', 'Applicants 65 or older', ['65-74', '>74'], ['8888'], 'had an applicant 65 or older'],
    [
      'hispanic_applicants_share',
      'ethnicity',
      'Hispanic or Latino applicants',
      ['Hispanic or Latino'],
      ['Ethnicity Not Available'],
      'had Hispanic or Latino applicants',
    ],
    [
      'black_applicants_share',
      'race',
      'Black or African American applicants',
      ['Black or African American'],
      ['Race Not Available'],
      'had Black or African American applicants',
    ],
    ['asian_applicants_share', 'race', 'Asian applicants', ['Asian'], ['Race Not Available'], 'had Asian applicants'],
  ];
  for (const [key, dimension, name, codes, exclude, phrase] of profile) {
    const value = share(nation, dimension, codes, exclude);
    const base = reported(nation, dimension, exclude);
    add(
      'borrower_profile',
      `${key}_${year}`,
      value,
      percent(value),
      `${name}, share of HMDA records where reported, ${year}`,
      `${percent(value)} of ${year} HMDA records that reported the applicant's ${dimension} ${phrase}.`,
      `The ${whole(base)} HMDA records of ${year} that reported the applicant's ${dimension}, ${EVERYWHERE}; ` +
        `${whole(total(nation[dimension]) - base)} records without it (coded ${exclude.map((code) => `"${code}"`).join(' or ')}) are left out.`,
    );
  }
  return stats;
}
