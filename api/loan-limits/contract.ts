// The loan limits' contract: what a county lookup and a national-history request accept and answer,
// declared once. GET /loan-limits, GET /loan-limits/history, the MCP tool get_loan_limits, /ask, the
// /loan-limits page and the service's types derive from it.
import { z } from 'zod';
import { choice, integer } from '../platform/contract/lenient.ts';
import { countyName, stateOrTerritoryCode } from '../platform/contract/places.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { datasetAsOf, DatasetVersionsSchema } from '../platform/contract/versions.ts';

export const LOAN_TYPES = ['conforming', 'fha', 'va', 'usda', 'all'] as const;
export type LoanType = (typeof LOAN_TYPES)[number];
/** The programs with county files: conforming (FHFA) and FHA (HUD). */
export const PROGRAMS = ['conforming', 'fha'] as const;
export type Program = (typeof PROGRAMS)[number];

export const FIRST_HISTORY_YEAR = 1972;
export const LAST_YEAR = 2100;
const YEAR_HINT = `Give a 4-digit year from ${FIRST_HISTORY_YEAR} to ${LAST_YEAR}, e.g. 2026.`;

export const LoanLimitsQuerySchema = z.object({
  state: stateOrTerritoryCode().describe('State or territory (DC, PR, GU, VI, AS, MP).'),
  county: countyName().optional().describe('Name, NYC borough or FIPS; omit for all.'),
  year: integer({ min: FIRST_HISTORY_YEAR, max: LAST_YEAR, hint: YEAR_HINT }).optional().describe("Default: each program's latest."),
  loan_type: choice(LOAN_TYPES, { aliases: { conventional: 'conforming', any: 'all', every: 'all' } })
    .prefault('all')
    .describe('conforming, fha, va, usda or all.'),
  units: integer({ min: 1, max: 4, hint: 'Give 1, 2, 3 or 4 (units in the property).' })
    .optional()
    .describe("Only this many units' limit."),
  as_of: datasetAsOf(),
});
export type LoanLimitsQueryInput = z.input<typeof LoanLimitsQuerySchema>;
export type LoanLimitsQuery = z.output<typeof LoanLimitsQuerySchema>;

export const UnitLimitsSchema = z.partialRecord(z.enum(['1', '2', '3', '4']), z.int()).describe('Limit by number of units, dollars.');
export type UnitLimits = z.infer<typeof UnitLimitsSchema>;

export const ProgramLimitSchema = z.object({
  available: z.boolean(),
  year: z.int().optional().describe("Calendar year of these limits; without a requested year, the program's latest published year."),
  limits: UnitLimitsSchema.nullable().describe('Null when the program has no limit (USDA) or no data for the county and year.'),
  tier: z.string().optional().describe('conforming: `baseline` or `high_cost`; FHA: `standard` (the floor) or `high_cost`.'),
  note: z.string().optional(),
});
export type ProgramLimit = z.infer<typeof ProgramLimitSchema>;

export const CountyLimitsSchema = z.object({
  fips: z.string(),
  county: z.string(),
  state: z.string(),
  kind: z.enum(['county', 'planning_region']).describe("`planning_region` for Connecticut's county-equivalents since 2022."),
  cbsa: z.string().nullable(),
  conforming: ProgramLimitSchema.optional(),
  fha: ProgramLimitSchema.optional(),
  va: ProgramLimitSchema.optional(),
  usda: ProgramLimitSchema.optional(),
  note: z.string().optional(),
});
export type CountyLimits = z.infer<typeof CountyLimitsSchema>;

export const LoanLimitsSourceSchema = SourceSchema.extend({
  name: z.string().describe('Publisher.'),
  loan_type: z.enum(['conforming', 'fha', 'va', 'usda']),
  dataset: z.string().nullable().describe('The dataset the figures were loaded from; null where none is (USDA).'),
});
export type LoanLimitsSource = z.infer<typeof LoanLimitsSourceSchema>;

export const LoanLimitsAnswerSchema = z.object({
  parameters: z.object({
    state: z.string(),
    state_name: z.string(),
    county: z.string().nullable().describe('The county as the county list names it (a borough is its county).'),
    year: z.int(),
    loan_type: z.enum(LOAN_TYPES),
    units: z.int().nullable(),
  }),
  year: z.int().describe('The year of the first program answered (conforming unless loan_type=fha); see `years`.'),
  years: z
    .object({ conforming: z.int().optional(), fha: z.int().optional() })
    .describe(
      "The year each program's figures are for: without a requested year, each program's latest published year, so FHA may lag conforming (the notes say so).",
    ),
  counties: z.array(CountyLimitsSchema),
  national: z.object({
    conforming: z.object({ baseline: UnitLimitsSchema, ceiling: UnitLimitsSchema }).nullable().optional(),
    fha: z.object({ floor: UnitLimitsSchema, ceiling: UnitLimitsSchema }).nullable().optional(),
  }),
  sources: z.array(LoanLimitsSourceSchema),
  notes: z.array(z.string()),
  dataset_versions: DatasetVersionsSchema,
});
export type LoanLimitsAnswer = z.infer<typeof LoanLimitsAnswerSchema>;

export const HISTORY_PROGRAMS = ['conforming', 'fha', 'all'] as const;
export type HistoryProgram = (typeof HISTORY_PROGRAMS)[number];

export const LoanLimitHistoryQuerySchema = z.object({
  program: choice(HISTORY_PROGRAMS)
    .prefault('all')
    .describe('`conforming` (since 1972), `fha` (since 2008) or `all` (default), in any case.'),
  from: integer({
    min: FIRST_HISTORY_YEAR,
    max: LAST_YEAR,
    hint: `Give a 4-digit year from ${FIRST_HISTORY_YEAR} to ${LAST_YEAR}, e.g. 2008.`,
  })
    .optional()
    .describe('First year, inclusive, e.g. 2008 (default: the first year held).'),
  to: integer({
    min: FIRST_HISTORY_YEAR,
    max: LAST_YEAR,
    hint: `Give a 4-digit year from ${FIRST_HISTORY_YEAR} to ${LAST_YEAR}, e.g. 2026.`,
  })
    .optional()
    .describe('Last year, inclusive, not before `from` (default: the last year held).'),
});
export type LoanLimitHistoryQuery = z.output<typeof LoanLimitHistoryQuerySchema>;

const HistorySourceSchema = z.object({ title: z.string(), url: z.string() });

export const ConformingHistoryEntrySchema = z.object({
  year: z.int(),
  baseline: z.int().nullable().describe('National one-unit baseline limit; null where the cited sources give no figure for the year.'),
  ceiling: z.int().nullable().describe('High-cost ceiling, one unit (since 2008); null before.'),
  note: z.string().nullable(),
  source: HistorySourceSchema,
  ceiling_source: HistorySourceSchema.nullable().describe('Where the ceiling comes from when another source than the baseline.'),
});

export const FhaHistoryEntrySchema = z.object({
  year: z.int(),
  floor: z.int().describe('FHA national floor, one unit.'),
  ceiling: z.int().describe('FHA national ceiling, one unit.'),
  note: z.string().nullable(),
  source: HistorySourceSchema,
});

export const LoanLimitHistoryResponseSchema = z.object({
  parameters: z.object({ program: z.enum(HISTORY_PROGRAMS), from: z.int(), to: z.int() }),
  units: z.string(),
  conforming: z.array(ConformingHistoryEntrySchema).optional().describe('Present unless program=fha.'),
  fha: z.array(FhaHistoryEntrySchema).optional().describe('Present unless program=conforming.'),
  notes: z.array(z.string()),
});
export type LoanLimitHistory = z.infer<typeof LoanLimitHistoryResponseSchema>;
