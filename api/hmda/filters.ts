// The filters every preset accepts, parsed once with zod (shared with the query_hmda tool), and their
// translation into WHERE fragments with bound parameters: values never enter the SQL text.
import { z } from 'zod';
import { BadRequestError } from '../platform/errors.ts';
import {
  DEMOGRAPHIC_DIMENSIONS,
  HMDA_STATES,
  HMDA_YEAR_SPAN,
  HMDA_YEARS,
  LIEN_CODES,
  LOAN_PURPOSE_CODES,
  LOAN_TYPE_CODES,
  RANKING_SORTS,
} from './codes.ts';

export { DEMOGRAPHIC_DIMENSIONS };

function codeOrName<T extends Record<string, number>>(names: T) {
  const codes = Object.values(names).map(String);
  return z.union([z.string(), z.number()]).transform((value, context) => {
    const text = String(value).trim().toLowerCase();
    if (text in names) return names[text as keyof T] as number;
    if (codes.includes(text)) return Number(text);
    context.addIssue({ code: 'custom', message: `must be one of ${Object.keys(names).join(', ')} (or the codes ${codes.join(', ')})` });
    return z.NEVER;
  });
}

export const presetFiltersSchema = z.object({
  year: z.coerce
    .number()
    .int()
    .refine((year) => (HMDA_YEARS as readonly number[]).includes(year), { message: `must be one of ${HMDA_YEARS.join(', ')}` })
    .optional()
    .describe(`Activity year, ${HMDA_YEAR_SPAN}.`),
  state: z
    .string()
    .transform((state) => state.trim().toUpperCase())
    .refine((state) => (HMDA_STATES as readonly string[]).includes(state), {
      message: `must be a 2-letter code: ${HMDA_STATES.join(', ')}`,
    })
    .optional()
    .describe('2-letter state code, e.g. CO.'),
  county: z
    .string()
    .regex(/^\d{5}$/, 'must be a 5-digit county FIPS code such as 08031')
    .optional()
    .describe('5-digit county FIPS code.'),
  msa: z
    .string()
    .regex(/^\d{5}$/, 'must be a 5-digit MSA/MD code such as 19740')
    .optional()
    .describe('5-digit MSA/MD code (derived_msa_md).'),
  loan_type: codeOrName(LOAN_TYPE_CODES).optional().describe('conventional, fha, va or usda (or codes 1–4).'),
  loan_purpose: codeOrName(LOAN_PURPOSE_CODES)
    .optional()
    .describe('purchase, home_improvement, refinance, cash_out_refinance, other, not_applicable.'),
  lien: codeOrName(LIEN_CODES).optional().describe('first or subordinate (codes 1, 2).'),
  lei: z
    .string()
    .transform((lei) => lei.trim().toUpperCase())
    .refine((lei) => /^[A-Z0-9]{20}$/.test(lei), { message: 'must be a 20-character Legal Entity Identifier' })
    .optional()
    .describe('Legal Entity Identifier of one lender.'),
  limit: z.coerce.number().int().min(1).max(100).default(10).describe('Rows for lender_rankings and denial reasons (1–100).'),
  by: z.enum(DEMOGRAPHIC_DIMENSIONS).default('race').describe('demographics: group by race, ethnicity, sex, age or income.'),
  sort: z.enum(RANKING_SORTS).default('originations').describe('lender_rankings: rank by count or dollar volume.'),
});

export type PresetFilters = z.infer<typeof presetFiltersSchema>;

export function parseFilters(input: unknown): PresetFilters {
  const parsed = presetFiltersSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = issue?.path.join('.') || 'filters';
  throw new BadRequestError(`Invalid HMDA filter ${name}: ${issue?.message ?? 'invalid value'}.`);
}

export interface WhereClause {
  sql: string;
  params: (string | number)[];
}

/** `AND`-joined conditions over the `lar` view; `first` is the number of the first placeholder. */
export function whereClause(filters: PresetFilters, first = 1): WhereClause {
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  const add = (column: string, value: string | number | undefined) => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(`${column} = $${first + params.length - 1}`);
  };
  add('year', filters.year);
  add('state', filters.state);
  add('county_code', filters.county);
  add('derived_msa_md', filters.msa);
  add('loan_type', filters.loan_type);
  add('loan_purpose', filters.loan_purpose);
  add('lien_status', filters.lien);
  add('lei', filters.lei);
  return { sql: conditions.join(' AND '), params };
}

/** The filters as given back to the caller (only those set), for echoing in results. */
export function echoFilters(filters: PresetFilters): Record<string, string | number> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as Record<string, string | number>;
}
