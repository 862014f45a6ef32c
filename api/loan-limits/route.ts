// GET /loan-limits: conforming, FHA, VA and USDA limits for a state or one county. The service
// spec names the capability but no REST path; this route is an addition, documented as such.
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
import { ErrorBodySchema } from '../platform/http/openapi.ts';
import { LoanLimitHistoryQuerySchema, LoanLimitHistoryResponseSchema } from './history-view.ts';
import { LOAN_TYPES, type LoanLimitsQuery } from './service.ts';

const yearMessage = 'Give a 4-digit year from 1972 to 2100, e.g. 2026.';
const unitsMessage = 'Give 1, 2, 3 or 4 (units in the property).';

export const LoanLimitsQuerySchema = z.object({
  state: z.string().min(1).max(40).describe('Required. 2-letter code or name: the 50 states, DC, PR, GU, VI, AS, MP.'),
  county: z.string().max(100).optional().describe('County name (e.g. `Los Angeles`, `los angeles county`) or 5-digit FIPS (`06037`). Connecticut accepts both its planning regions (09110–09190) and its former counties. Omit for every county of the state.'),
  year: z
    .string()
    .regex(/^\d{4}$/, { message: yearMessage })
    .transform(Number)
    .pipe(z.int().min(1972, { message: yearMessage }).max(2100, { message: yearMessage }))
    .optional()
    .describe(
      'Calendar year. Default: for each program its latest published year up to the current one (FHA may then be a year ' +
        'behind conforming; `years` and the notes say so). County files start in 2018; national limits since 1972 are at ' +
        '/loan-limits/history.',
    ),
  loan_type: z.enum(LOAN_TYPES).optional().describe('`conforming`, `fha`, `va`, `usda` or `all` (default).'),
  units: z
    .string()
    .regex(/^[1-4]$/, { message: unitsMessage })
    .transform((value) => Number(value) as 1 | 2 | 3 | 4)
    .optional()
    .describe('1–4: return only the limit for that many units. Default: all four.'),
});

const UnitLimitsSchema = z.record(z.enum(['1', '2', '3', '4']), z.int());
const ProgramSchema = z.object({
  available: z.boolean(),
  year: z.int().optional().describe('Calendar year of these limits; without a requested year, the program\'s latest published year.'),
  limits: UnitLimitsSchema.nullable(),
  tier: z.string().optional(),
  note: z.string().optional(),
});

export const LoanLimitsResponseSchema = z.object({
  parameters: z.object({
    state: z.string(), state_name: z.string(), county: z.string().nullable(), year: z.int(),
    loan_type: z.enum(LOAN_TYPES), units: z.int().nullable(),
  }),
  year: z.int().describe('The year of the first program answered (conforming unless loan_type=fha); see `years`.'),
  years: z
    .object({ conforming: z.int().optional(), fha: z.int().optional() })
    .describe('The year each program\'s figures are for: without a requested year, each program\'s latest published year, so FHA may lag conforming (the notes say so).'),
  counties: z.array(
    z.object({
      fips: z.string(), county: z.string(), state: z.string(), kind: z.enum(['county', 'planning_region']), cbsa: z.string().nullable(),
      conforming: ProgramSchema.optional(), fha: ProgramSchema.optional(), va: ProgramSchema.optional(), usda: ProgramSchema.optional(),
      note: z.string().optional(),
    }),
  ),
  national: z.object({
    conforming: z.object({ baseline: UnitLimitsSchema, ceiling: UnitLimitsSchema }).nullable().optional(),
    fha: z.object({ floor: UnitLimitsSchema, ceiling: UnitLimitsSchema }).nullable().optional(),
  }),
  sources: z.array(z.object({ loan_type: z.string(), dataset: z.string().nullable(), publisher: z.string(), source_url: z.string(), as_of: z.string().nullable() })),
  notes: z.array(z.string()),
});

export function registerLoanLimitsRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.add({
    method: 'get',
    path: '/loan-limits',
    operationId: 'getLoanLimits',
    summary: 'Conforming, FHA, VA and USDA loan limits by county',
    description:
      'An addition to the service specification (which defines loan limits as a capability and an MCP tool, `get_loan_limits`, ' +
      'but no REST path); it takes the same arguments as that tool. Conforming limits come from FHFA and FHA limits from HUD, ' +
      'for every county and every year loaded (2018 on); VA uses the conforming limit (for partial entitlement); USDA guaranteed ' +
      'loans have no loan limit, which the answer states. Without `year`, each program answers with its latest published ' +
      'year up to the current one, labelled in `years`, in each program\'s `year` and in the notes. Each answer cites its ' +
      'sources and as-of dates. 400 for an unknown state (lists valid codes) or county (suggests close names); 404 for a ' +
      'year with no county data loaded (with that year\'s national figures when known); 503 while the first sync runs.',
    tags: ['Loan limits'],
    query: LoanLimitsQuerySchema,
    responses: {
      200: { description: 'Limits per county, national baseline/floor and ceiling, sources', schema: LoanLimitsResponseSchema },
      404: { description: 'No county data is loaded for the requested year; the message lists the years loaded', schema: ErrorBodySchema },
    },
    handler: ({ query }) => {
      const input: LoanLimitsQuery = { state: query.state, county: query.county, year: query.year, loanType: query.loan_type, units: query.units };
      return deps.services.loanLimits.getLoanLimits(input);
    },
  });

  registry.add({
    method: 'get',
    path: '/loan-limits/history',
    operationId: 'getLoanLimitHistory',
    summary: 'National loan limits by year: conforming baseline and ceiling since 1972, FHA floor and ceiling since 2008',
    description:
      'One-unit national figures from `data/loan-limits/national-history.json`, each with the source that states it: the ' +
      'conforming baseline since 1972 (years the cited sources give no figure for are null, never guessed), the high-cost ' +
      'ceiling since 2008, and the FHA forward-mortgage floor and ceiling since 2008. The same figures back `/ask`; county ' +
      'limits are at /loan-limits. 400 for a malformed year or `from` after `to`; 404 when the range holds no year.',
    tags: ['Loan limits'],
    query: LoanLimitHistoryQuerySchema,
    responses: {
      200: { description: 'National limits per year with sources', schema: LoanLimitHistoryResponseSchema },
      404: { description: 'No national figure in the requested range; the message says which years are held', schema: ErrorBodySchema },
    },
    handler: ({ query }) => deps.services.loanLimits.history(query),
  });
}
