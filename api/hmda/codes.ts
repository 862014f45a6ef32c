// Code values of the public LAR fields the presets group by, with their published labels (FFIEC
// Public LAR data dictionary), and the years and geographies the warehouse accepts.

import { STATE_CODES } from '../geo/states.ts';

/** Activity years of the public LAR (the 2018 format onward); the last is the latest the FFIEC has published. */
export const HMDA_YEARS = [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025] as const;
export const FIRST_HMDA_YEAR = HMDA_YEARS[0];
export const LATEST_HMDA_YEAR = HMDA_YEARS[HMDA_YEARS.length - 1]!;
/** "2018–2025", for messages and descriptions. */
export const HMDA_YEAR_SPAN = `${FIRST_HMDA_YEAR}–${LATEST_HMDA_YEAR}`;

/** The preset questions, by name. */
export const PRESET_NAMES = ['rates', 'approvals', 'denials', 'demographics', 'lender_rankings'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** What `demographics` groups by. */
export const DEMOGRAPHIC_DIMENSIONS = ['race', 'ethnicity', 'sex', 'age', 'income'] as const;
/** What `lender_rankings` ranks by. */
export const RANKING_SORTS = ['originations', 'volume'] as const;

/** The names filters accept for coded fields, and the code each means. */
export const LOAN_TYPE_CODES = { conventional: 1, fha: 2, va: 3, usda: 4 } as const;
export const LOAN_PURPOSE_CODES = {
  purchase: 1,
  home_improvement: 2,
  refinance: 31,
  cash_out_refinance: 32,
  other: 4,
  not_applicable: 5,
} as const;
export const LIEN_CODES = { first: 1, subordinate: 2 } as const;

/** Territories the FFIEC files and state aggregates key besides the 50 states and DC. */
export const HMDA_TERRITORIES = ['AS', 'GU', 'MP', 'PR', 'VI'] as const;

/** States, DC and territories as the FFIEC files and state aggregates key them, sorted. */
export const HMDA_STATES: readonly string[] = [...STATE_CODES, ...HMDA_TERRITORIES].sort();

export const ACTION_TAKEN: Record<number, string> = {
  1: 'Loan originated',
  2: 'Application approved but not accepted',
  3: 'Application denied',
  4: 'Application withdrawn by applicant',
  5: 'File closed for incompleteness',
  6: 'Purchased loan',
  7: 'Preapproval request denied',
  8: 'Preapproval request approved but not accepted',
};

export const LOAN_TYPE: Record<number, string> = {
  1: 'Conventional',
  2: 'FHA',
  3: 'VA',
  4: 'USDA (RHS or FSA)',
};

export const LOAN_PURPOSE: Record<number, string> = {
  1: 'Home purchase',
  2: 'Home improvement',
  31: 'Refinancing',
  32: 'Cash-out refinancing',
  4: 'Other purpose',
  5: 'Not applicable',
};

export const LIEN_STATUS: Record<number, string> = { 1: 'First lien', 2: 'Subordinate lien' };

export const DENIAL_REASON: Record<number, string> = {
  1: 'Debt-to-income ratio',
  2: 'Employment history',
  3: 'Credit history',
  4: 'Collateral',
  5: 'Insufficient cash (downpayment, closing costs)',
  6: 'Unverifiable information',
  7: 'Credit application incomplete',
  8: 'Mortgage insurance denied',
  9: 'Other',
  10: 'Not applicable',
};

/** A SQL CASE expression mapping a code column to its label; codes are integers we own, not input. */
export function labelCase(column: string, labels: Record<number, string>): string {
  const arms = Object.entries(labels)
    .map(([code, label]) => `WHEN ${Number(code)} THEN '${label.replace(/'/g, "''")}'`)
    .join(' ');
  return `CASE ${column} ${arms} ELSE 'Unknown' END`;
}
