// Code values of the public LAR fields the presets group by, with their published labels (FFIEC
// Public LAR data dictionary), and the years and geographies the warehouse accepts.

export const HMDA_YEARS = [2018, 2019, 2020, 2021, 2022, 2023, 2024] as const;

/** States, DC and territories as the FFIEC files and state aggregates key them. */
export const HMDA_STATES = [
  'AK', 'AL', 'AR', 'AS', 'AZ', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'GU', 'HI', 'IA', 'ID', 'IL', 'IN',
  'KS', 'KY', 'LA', 'MA', 'MD', 'ME', 'MI', 'MN', 'MO', 'MP', 'MS', 'MT', 'NC', 'ND', 'NE', 'NH', 'NJ', 'NM',
  'NV', 'NY', 'OH', 'OK', 'OR', 'PA', 'PR', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VA', 'VI', 'VT', 'WA', 'WI',
  'WV', 'WY',
] as const;

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
