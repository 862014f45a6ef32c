// The rates contract: what a rate request accepts and what a rate record answers (the detailed record,
// 2.2 simple), declared once. GET /rates, the MCP tool get_mortgage_rates, /ask, the /rates page,
// the service's types and the importers' vocabulary all derive from it.
import { z } from 'zod';
import { calendarDate, choice, lenient, textForms } from '../platform/contract/lenient.ts';
import { stateCode } from '../platform/contract/places.ts';
import {
  downPaymentLtvTier,
  ficoTierOrBelow,
  ltvTier,
  FICO_RANGES,
  FICO_TIERS,
  LOWEST_TIERED_SCORE,
  LTV_TIERS,
  type FicoTier,
  type LtvTier,
} from '../platform/contract/credit-tiers.ts';
import { valueMessage } from '../platform/contract/messages.ts';
import { datasetAsOf, DatasetVersionsSchema } from '../platform/contract/versions.ts';
import { STATE_CODES, type StateCode } from '../geo/states.ts';
import { FreshnessSchema } from '../freshness/contract.ts';

// The tiers are the contract kit's (one declaration for every capability that speaks of them).
export { FICO_RANGES, FICO_TIERS, LOWEST_TIERED_SCORE, LTV_TIERS, STATE_CODES, type FicoTier, type LtvTier, type StateCode };

/** The label of a FICO reading below every published tier (FHA, VA and USDA indices cover every score). */
export const BELOW_TIERS_LABEL = 'below 680';

// `usda` is an addition to the contract's four products: Optimal Blue publishes a USDA index.
export const PRODUCT_TYPES = { conventional: 'Conventional', fha: 'FHA', va: 'VA', jumbo: 'Jumbo', usda: 'USDA' } as const;
export type ProductType = keyof typeof PRODUCT_TYPES;
export const OCCUPANCIES = { primary: 'Primary residence', secondary: 'Second home', investment: 'Investment property' } as const;
export type Occupancy = keyof typeof OCCUPANCIES;
export const PROPERTY_TYPES = {
  single_family: 'Single family',
  condo: 'Condo',
  townhouse: 'Townhouse',
  multi_family: 'Multi-family',
  manufactured: 'Manufactured home',
} as const;
export type PropertyType = keyof typeof PROPERTY_TYPES;
export const LOAN_TERMS = { 30: '30-year', 20: '20-year', 15: '15-year', 10: '10-year' } as const;
export type LoanTerm = keyof typeof LOAN_TERMS;
export const LOAN_PURPOSES = { purchase: 'Purchase', refinance: 'Refinance', cash_out_refinance: 'Cash-out refinance' } as const;
export type LoanPurpose = keyof typeof LOAN_PURPOSES;

const keysOf = <T extends Record<string, string>>(record: T) => Object.keys(record) as [keyof T & string, ...(keyof T & string)[]];

/** One of a labelled set: its key or its label ("Second home" → `secondary`), in any case, plus other spellings. */
function labelled<T extends Record<string, string>>(record: T, aliases: Readonly<Record<string, keyof T & string>> = {}) {
  const labels = Object.fromEntries(Object.entries(record).map(([key, label]) => [label, key])) as Record<string, keyof T & string>;
  return choice(keysOf(record), { aliases: { ...labels, ...aliases } });
}

const TERM_VALUES = [30, 20, 15, 10] as const;
const TERM_HINT = 'Give the term in years: 30, 20, 15 or 10 (e.g. 30, "15" or "15-year").';

/** 15, "15", "15-year", "15 years", "15yr" → 15; anything else is left to fail. */
function termYears(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const match = /^\s*(\d{1,2})\s*(?:-?\s*(?:years?|yrs?|y))?\s*$/i.exec(value);
  return match ? Number(match[1]) : value;
}

/** The texts `termYears` reads as a term: "15", "15-year", "15 years", "15yr", in any case. */
const TERM_TEXT = `(?:${TERM_VALUES.join('|')})\\s*(?:-?\\s*[Yy](?:[Ee][Aa][Rr][Ss]?|[Rr][Ss]?)?)?`;

function loanTerm() {
  const json = { anyOf: [{ type: 'integer', enum: [...TERM_VALUES] }, textForms(TERM_TEXT)] };
  return lenient(termYears, z.literal(TERM_VALUES, { error: (issue) => valueMessage(issue, TERM_HINT) }), { json });
}

export const RatesQuerySchema = z.object({
  state: stateCode()
    .prefault('CO')
    .describe('State: 2-letter code or name of one of the 50 states or DC, in any case, e.g. "TX", "tx" or "Texas".'),
  fico: ficoTierOrBelow()
    .prefault(1)
    .describe('Tier 1-5 (780+, 740-779, 720-739, 700-719, 680-699) or a score 300-850; below 680 only fha, va, usda.'),
  ltv: ltvTier().optional().describe('Tier 1 (up to 80%, default) or 2, or a percent 50-100; or give `down_payment`.'),
  down_payment: downPaymentLtvTier().optional().describe('Percent of the price: 20+ is LTV tier 1, less tier 2.'),
  product_type: labelled(PRODUCT_TYPES, { conforming: 'conventional' })
    .prefault('conventional')
    .describe('conventional, fha, va, jumbo or usda.'),
  occupancy: labelled(OCCUPANCIES, { second_home: 'secondary', owner_occupied: 'primary' })
    .prefault('primary')
    .describe('primary, secondary or investment.'),
  property_type: labelled(PROPERTY_TYPES, { condominium: 'condo', manufactured_home: 'manufactured' })
    .prefault('single_family')
    .describe('e.g. single_family, condo or manufactured.'),
  loan_term: loanTerm().prefault(30).describe('Years: 30, 20, 15 or 10.'),
  loan_purpose: labelled(LOAN_PURPOSES, { refi: 'refinance', cash_out: 'cash_out_refinance' })
    .prefault('purchase')
    .describe('purchase, refinance or cash_out_refinance.'),
  format: choice(['detailed', 'simple'])
    .prefault('detailed')
    .describe('`detailed` (record 2.1, default) or `simple` (record 2.2), in any case.'),
  date: calendarDate().optional().describe('The record as of this day. Default: latest.'),
  as_of: datasetAsOf(),
});

export type RatesQueryInput = z.input<typeof RatesQuerySchema>;
export type RatesQuery = z.output<typeof RatesQuerySchema>;

export const SourceRefSchema = z.object({
  name: z.string().describe('Publisher or lender.'),
  url: z.string(),
  as_of: z.string().describe('YYYY-MM-DD'),
});
export type SourceRef = z.infer<typeof SourceRefSchema>;

/** What `rate` is: a lender's imported sheet for the state, the documented state estimate, or a national figure. */
export const RATE_KINDS = ['lender_sheet', 'state_estimate', 'national'] as const;
export type RateKind = (typeof RATE_KINDS)[number];

/** Each kind of rate in the one sentence every face says it in: the MCP tool, /ask and the rates page. */
export const RATE_KIND_TEXT: Record<RateKind, string> = {
  lender_sheet: "This is from a lender's rate sheet imported for this state.",
  state_estimate: "This is a state estimate: the national benchmark plus the state's HMDA rate-spread adjustment.",
  national: 'This is a national figure, the same in every state.',
};

export const StateEstimateSchema = z
  .object({
    method: z.string().describe('How the adjustment is computed, in one sentence.'),
    method_url: z.string().describe('The page documenting the method, its inputs and limits.'),
    hmda_year: z.int().describe("The HMDA activity year the loans come from (the estimate's as-of)."),
    sample_size: z.int().describe("The state's loans in the cell (originated, first-lien, owner-occupied, 1-4 unit, fixed 30-year)."),
    national_sample_size: z.int(),
    minimum_sample_size: z.int().describe('Below this the state gets no adjustment.'),
    adjustment_points: z
      .number()
      .nullable()
      .describe('State median rate spread minus the national median, percentage points; null when the sample is too small.'),
    national_rate: z.number().describe('The national benchmark figure the adjustment is added to.'),
    synthetic: z.boolean().describe('True only when the warehouse holds SYNTHETIC benchmark rows, never real loans.'),
  })
  .describe('The documented state estimate behind `rate` (national benchmark + HMDA rate-spread difference), or null.');
export type StateEstimate = z.infer<typeof StateEstimateSchema>;

export const RateParametersSchema = z
  .object({
    state: z.string(),
    fico_tier: z.string(),
    ltv_tier: z.string(),
    product_type: z.string(),
    occupancy: z.string(),
    property_type: z.string(),
    loan_term: z.string(),
    loan_purpose: z.string(),
  })
  .describe('Echo of the request as labels.');
export type RateParameters = z.infer<typeof RateParametersSchema>;

export const DetailedRateRecordSchema = z.object({
  rate_30yr: z
    .number()
    .nullable()
    .describe(
      "The 30-year rate of the requested state, FICO tier, LTV tier and product, percent (the specification's field). It " +
        'stays the 30-year figure when `loan_term` asks for another term (that figure is `rate`); null only then, when no ' +
        'source covers the 30-year cell.',
    ),
  rate_30yr_last_updated: z.string().nullable().describe('YYYY-MM-DD of the observation behind rate_30yr.'),
  rate: z.number().describe('The rate for the requested `loan_term`, percent (equals rate_30yr for 30-year requests).'),
  loan_term: z.int().describe("Term of `rate`, in years (the request's loan_term)."),
  parameters: RateParametersSchema,
  parameter_notes: z
    .array(z.string())
    .describe(
      'How a score or a percent was read as a tier, e.g. "A FICO score of 760 is in tier 2 (740-779)."; empty when tiers were given.',
    ),
  rate_change_weekly: z.number().nullable().describe('Change of `rate` against the same source about a week earlier, percentage points.'),
  rate_change_line: z
    .string()
    .nullable()
    .describe(
      'e.g. "Down 0.08 points from last week"; for a figure that is not current, its week instead: "Up 0.06 points in the week to 2025-09-25, its latest figure".',
    ),
  last_updated: z.string().describe('YYYY-MM-DD of the observation behind `rate`.'),
  national_average_rate: z.number().nullable().describe('Equals survey_rate.'),
  national_average_last_updated: z.string().nullable(),
  index_a_rate: z.number().nullable().describe('Market benchmark: Optimal Blue 30-year fixed conforming (FICO 740+, LTV ≤ 80).'),
  index_a_last_updated: z.string().nullable(),
  survey_rate: z.number().nullable().describe('National weekly survey: Freddie Mac PMMS 30-year fixed.'),
  survey_last_updated: z.string().nullable(),
  rate_kind: z
    .enum(RATE_KINDS)
    .describe(
      "`lender_sheet`: an imported rate sheet for this state; `state_estimate`: national benchmark + the state's HMDA adjustment (`estimate`); `national`: the same for every state.",
    ),
  tier_specific: z
    .boolean()
    .describe('False when no benchmark of this FICO/LTV cell is loaded and a broader one answers (the disclaimer says which).'),
  estimate: StateEstimateSchema.nullable(),
  missing: z
    .array(z.string())
    .describe('Parts of the answer that could not be given, one sentence each (e.g. the state adjustment without HMDA loans).'),
  freshness: z
    .array(FreshnessSchema)
    .describe("Each figure's age against today (or `date`) and whether a newer release should exist by its publisher's schedule."),
  stale: z
    .array(FreshnessSchema)
    .describe('The entries of `freshness` with `stale` true (empty when every figure is current); the disclaimer says the same.'),
  disclaimer: z
    .string()
    .nullable()
    .describe('Where the rate comes from, whether it is an estimate, what it does not vary by, and which figures are not current.'),
  metadata: z.object({ api_version: z.string(), documentation: z.string() }),
  source: z.string().describe('The publishers behind `rate` (both, for a state estimate).'),
  sources: z.array(SourceRefSchema).describe('Every source behind the record with its as-of date.'),
  dataset_versions: DatasetVersionsSchema,
});
export type DetailedRateRecord = z.infer<typeof DetailedRateRecordSchema>;

export const SimpleRateRecordSchema = z.object({
  rate: z.number().describe('The rate for the requested loan_term, percent.'),
  date: z.string().describe('YYYY-MM-DD'),
  state: z.string(),
  fico_tier: z.string(),
  ltv_tier: z.string(),
  loan_term: z.int().describe('Term of `rate`, in years.'),
  source: z.string().describe('Name of the rate provider (both publishers for a state estimate).'),
  rate_kind: z.enum(RATE_KINDS).describe('lender_sheet, state_estimate or national (see the detailed form).'),
  tier_specific: z
    .boolean()
    .describe('False when no benchmark of this FICO/LTV cell is loaded and a broader one answers (the disclaimer says which).'),
  freshness: FreshnessSchema.describe('How old `rate` is against today (or `date`) and whether a newer release should exist.'),
  disclaimer: z
    .string()
    .nullable()
    .describe('Where the rate comes from, whether it is an estimate, what it does not vary by, and whether it is current.'),
  dataset_versions: DatasetVersionsSchema,
});
export type SimpleRateRecord = z.infer<typeof SimpleRateRecordSchema>;

/** What GET /rates answers: record 2.1 (format=detailed, default) or 2.2 (format=simple). */
export const RateRecordSchema = z.union([DetailedRateRecordSchema, SimpleRateRecordSchema]);
export type RateRecord = z.infer<typeof RateRecordSchema>;

export const isDetailedRecord = (record: RateRecord): record is DetailedRateRecord => 'parameters' in record;
