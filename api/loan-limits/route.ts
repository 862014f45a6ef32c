// GET /loan-limits: conforming, FHA, VA and USDA limits for a state or one county. The service
// spec names the capability but no REST path; this route is an addition, documented as such.
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
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
    .describe('Calendar year. Default: the current year when loaded, else the latest loaded. County files start in 2018.'),
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
  limits: UnitLimitsSchema.nullable(),
  tier: z.string().optional(),
  note: z.string().optional(),
});

export const LoanLimitsResponseSchema = z.object({
  parameters: z.object({
    state: z.string(), state_name: z.string(), county: z.string().nullable(), year: z.int(),
    loan_type: z.enum(LOAN_TYPES), units: z.int().nullable(),
  }),
  year: z.int(),
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
      'loans have no loan limit, which the answer states. Each answer cites its sources and as-of dates. 400 for an unknown state ' +
      '(lists valid codes) or county (suggests close names); 404 for a year with no data loaded; 503 while the first sync runs.',
    tags: ['Loan limits'],
    query: LoanLimitsQuerySchema,
    responses: {
      200: { description: 'Limits per county, national baseline/floor and ceiling, sources', schema: LoanLimitsResponseSchema },
    },
    handler: ({ query }) => {
      const input: LoanLimitsQuery = { state: query.state, county: query.county, year: query.year, loanType: query.loan_type, units: query.units };
      return deps.services.loanLimits.getLoanLimits(input);
    },
  });
}
