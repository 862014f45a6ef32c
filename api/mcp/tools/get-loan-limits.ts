// get_loan_limits: conforming (FHFA), FHA (HUD), VA and USDA loan limits for every county, 1–4
// units, every year loaded, with each figure's source and as-of date.
import { z } from 'zod';
import { sourceSchema, sourcesText, type ToolContext } from '../tool-kit.ts';
import { LOAN_TYPES, type LoanLimitsResult } from '../../loan-limits/service.ts';
import { LoanLimitsResponseSchema } from '../../loan-limits/route.ts';

const money = (value: number | undefined) => (value === undefined ? 'n/a' : `$${value.toLocaleString('en-US')}`);

export function loanLimitsText(result: LoanLimitsResult): string {
  const lines = result.counties.slice(0, 25).map((county) => {
    const parts: string[] = [];
    if (county.conforming?.limits) parts.push(`conforming ${money(county.conforming.limits['1'] ?? Object.values(county.conforming.limits)[0])}`);
    if (county.fha?.limits) parts.push(`FHA ${money(county.fha.limits['1'] ?? Object.values(county.fha.limits)[0])}`);
    if (county.va?.limits) parts.push(`VA ${money(county.va.limits['1'] ?? Object.values(county.va.limits)[0])}`);
    if (county.usda) parts.push('USDA: no loan limit');
    return `${county.county}, ${county.state} (${county.fips}): ${parts.join('; ')}`;
  });
  const more = result.counties.length > 25 ? [`… and ${result.counties.length - 25} more counties (see structured content).`] : [];
  const years = Object.entries(result.years);
  const distinct = new Set(years.map(([, year]) => year));
  const when = distinct.size > 1 ? ` (${years.map(([program, year]) => `${program === 'fha' ? 'FHA' : program} ${year}`).join(', ')})` : ` ${result.year}`;
  return [`Loan limits${when}${result.parameters.units ? `, ${result.parameters.units}-unit` : ', 1-unit shown'}:`, ...lines, ...more, ...result.notes].join('\n');
}

export const getLoanLimitsTool = {
  name: 'get_loan_limits',
  title: 'Loan limits by county',
  description:
    'Conforming (FHFA), FHA (HUD), VA and USDA loan limits for any US county, 1–4 unit properties, for every year ' +
    'loaded (county files since 2018; national baseline history since 1972). VA uses the conforming limit (for ' +
    'partial entitlement); USDA guaranteed loans have no loan limit. Give a state and optionally a county (name or ' +
    '5-digit FIPS); without a county, every county of the state is returned.',
  input: {
    state: z.string().min(2).max(40).describe('State: 2-letter code or name, e.g. "CA" or "California".'),
    county: z.string().min(1).max(80).optional().describe('County name (e.g. "Los Angeles") or 5-digit FIPS (e.g. "06037").'),
    year: z.number().int().min(1972).max(2100).optional().describe("Calendar year. Default: each program's latest published year up to the current one (FHA may lag conforming; `years` says which)."),
    loan_type: z.enum(LOAN_TYPES).optional().describe('conforming, fha, va, usda or all (default all).'),
    units: z.number().int().min(1).max(4).optional().describe('Number of units, 1–4 (default: all four).'),
  },
  output: {
    year: z.number().int(),
    years: LoanLimitsResponseSchema.shape.years,
    parameters: z.looseObject({ state: z.string(), year: z.number() }),
    counties: z.array(z.looseObject({ fips: z.string(), county: z.string(), state: z.string() })),
    national: z.looseObject({}),
    notes: z.array(z.string()),
    sources: z.array(sourceSchema),
  },
  async run(
    args: { state: string; county?: string | undefined; year?: number | undefined; loan_type?: (typeof LOAN_TYPES)[number] | undefined; units?: number | undefined },
    { deps }: ToolContext,
  ) {
    const result = await deps.services.loanLimits.getLoanLimits({
      state: args.state,
      ...(args.county ? { county: args.county } : {}),
      ...(args.year ? { year: args.year } : {}),
      ...(args.loan_type ? { loanType: args.loan_type } : {}),
      ...(args.units ? { units: args.units as 1 | 2 | 3 | 4 } : {}),
    });
    const sources = result.sources.map((source) => ({ url: source.source_url, as_of: source.as_of, name: `${source.publisher} (${source.loan_type})` }));
    const structured = { year: result.year, years: result.years, parameters: result.parameters, counties: result.counties, national: result.national, notes: result.notes, sources };
    return { structured, text: `${loanLimitsText(result)}\n\n${sourcesText(sources)}` };
  },
};
