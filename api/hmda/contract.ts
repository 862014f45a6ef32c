// The HMDA warehouse's contract: what a question about HMDA loan records accepts and answers,
// declared once. The MCP tool query_hmda, GET /hmda/presets/{preset} and POST /hmda/sql derive
// from it. A result larger than the answer budget comes back as its first rows plus an export: a
// CSV and a Parquet file holding every row.
import { z } from 'zod';
import { choice, integer, lenient, text, textForms } from '../platform/contract/lenient.ts';
import { stateOrTerritoryCode } from '../platform/contract/places.ts';
import { valueMessage } from '../platform/contract/messages.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import {
  DEMOGRAPHIC_DIMENSIONS,
  FIRST_HMDA_YEAR,
  LATEST_HMDA_YEAR,
  LIEN_CODES,
  LOAN_PURPOSE_CODES,
  LOAN_TYPE_CODES,
  PRESET_NAMES,
  RANKING_SORTS,
} from './codes.ts';

/**
 * Bytes of JSON an answer's structured form may take (about 19,000 tokens of JSON). With the text
 * rendering (at most HMDA_TEXT_BUDGET_BYTES) a tool result stays under the 80,000-byte tool budget
 * (api/mcp/result-budget.ts). A larger result is answered with its first rows and an export.
 */
export const HMDA_ANSWER_BUDGET_BYTES = 60_000;
/** Bytes the text rendering of an answer may take: the text budget of every tool result (api/mcp/result-budget.ts). */
export const HMDA_TEXT_BUDGET_BYTES = 8_000;
/** Rows an answer over the budget shows before pointing at its export (fewer when they are wide). */
export const HMDA_SUMMARY_ROWS = 20;
/** How long an export stays downloadable after it is written. */
export const HMDA_EXPORT_TTL_HOURS = 24;
export const SQL_MAX_CHARACTERS = 10_000;

type Issue = { path?: PropertyKey[] | undefined; input?: unknown };

/** A 5-digit code (county FIPS, MSA/MD), trimmed; a number loses no leading zero (8031 → "08031"). */
function fiveDigitCode(hint: string) {
  const normalise = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 100_000
      ? String(value).padStart(5, '0')
      : typeof value === 'string'
        ? value.trim()
        : value;
  const error = (issue: Issue) => valueMessage(issue, hint);
  const json = { anyOf: [textForms('\\d{5}'), { type: 'integer', minimum: 0, maximum: 99_999 }] };
  return lenient(normalise, z.string({ error }).regex(/^\d{5}$/, { error }), { json });
}

const LEI_HINT = 'Give a 20-character Legal Entity Identifier, e.g. "549300UL36AJZ0WZ4U93".';

/** Trimmed, its ASCII letters in upper case (only those: "ß" must not become "SS"). */
function legalEntityIdentifier() {
  const normalise = (value: unknown) =>
    typeof value === 'string' ? value.trim().replace(/[a-z]+/g, (letters) => letters.toUpperCase()) : value;
  const error = (issue: Issue) => valueMessage(issue, LEI_HINT);
  return lenient(normalise, z.string({ error }).regex(/^[A-Z0-9]{20}$/, { error }), { json: textForms('[A-Za-z0-9]{20}') });
}

const LOAN_TYPES = Object.keys(LOAN_TYPE_CODES) as [keyof typeof LOAN_TYPE_CODES, ...(keyof typeof LOAN_TYPE_CODES)[]];
const LOAN_PURPOSES = Object.keys(LOAN_PURPOSE_CODES) as [keyof typeof LOAN_PURPOSE_CODES, ...(keyof typeof LOAN_PURPOSE_CODES)[]];
const LIENS = Object.keys(LIEN_CODES) as [keyof typeof LIEN_CODES, ...(keyof typeof LIEN_CODES)[]];

/** Each name's code as text ("2" → fha), so codes work wherever names do. */
const byCode = <T extends string>(codes: Readonly<Record<T, number>>) =>
  Object.fromEntries(Object.entries(codes).map(([name, code]) => [String(code), name])) as Record<string, T>;

/** The filters every preset takes. */
export const HmdaFiltersSchema = z.object({
  year: integer({ min: FIRST_HMDA_YEAR, max: LATEST_HMDA_YEAR }).optional().describe('Activity year. Default: every loaded year.'),
  state: stateOrTerritoryCode().optional().describe('A state, DC or territory, code or name.'),
  county: fiveDigitCode('Give a 5-digit county FIPS code, e.g. "08031" (Denver County, CO).')
    .optional()
    .describe('County FIPS code, e.g. "08031".'),
  msa: fiveDigitCode('Give a 5-digit MSA/MD code, e.g. "19740" (Denver-Aurora-Centennial, CO).')
    .optional()
    .describe('MSA/MD code (derived_msa_md).'),
  loan_type: choice(LOAN_TYPES, {
    aliases: { ...byCode(LOAN_TYPE_CODES), conv: 'conventional', rhs: 'usda', fsa: 'usda', rhs_fsa: 'usda' },
    numbers: true,
  })
    .optional()
    .describe('conventional, fha, va or usda (or codes 1-4).'),
  loan_purpose: choice(LOAN_PURPOSES, {
    aliases: {
      ...byCode(LOAN_PURPOSE_CODES),
      refi: 'refinance',
      refinancing: 'refinance',
      cash_out: 'cash_out_refinance',
      cash_out_refinancing: 'cash_out_refinance',
      home_purchase: 'purchase',
    },
    numbers: true,
  })
    .optional()
    .describe('purchase, refinance, cash_out_refinance, home_improvement… (or codes).'),
  lien: choice(LIENS, {
    aliases: { ...byCode(LIEN_CODES), first_lien: 'first', second: 'subordinate', subordinate_lien: 'subordinate', junior: 'subordinate' },
    numbers: true,
  })
    .optional()
    .describe('first or subordinate (or codes 1, 2).'),
  lei: legalEntityIdentifier().optional().describe("One lender's LEI."),
  limit: integer({ min: 1, max: 100 }).optional().describe('lender_rankings, denials: rows (default 10).'),
  by: choice(DEMOGRAPHIC_DIMENSIONS).optional().describe('demographics: race (default), ethnicity, sex, age or income.'),
  sort: choice(RANKING_SORTS).optional().describe('lender_rankings: originations (default) or volume.'),
});
export type HmdaFilters = z.output<typeof HmdaFiltersSchema>;

const SQL_DESCRIPTION =
  'A read-only SELECT over views `lar` (public LAR columns, year, state) and `lenders` (lei, respondent_name), ' +
  'e.g. "SELECT loan_type, count(*) FROM lar GROUP BY 1".';

// No example in the error message: a refusal never carries SQL text of ours.
export const SqlTextSchema = text({ max: SQL_MAX_CHARACTERS });

/** One question: a preset with filters, or one read-only SELECT. */
export const HmdaQuerySchema = HmdaFiltersSchema.extend({
  preset: choice(PRESET_NAMES).optional().describe('A preset query; give preset or sql.'),
  sql: SqlTextSchema.optional().describe(SQL_DESCRIPTION),
});
export type HmdaQuery = z.output<typeof HmdaQuerySchema>;

/** POST /hmda/sql's body. */
export const HmdaSqlBodySchema = z.object({ sql: SqlTextSchema.describe(SQL_DESCRIPTION) });

const CellSchema = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())]);
export const HmdaRowSchema = z
  .record(z.string(), CellSchema)
  .describe(
    'One row, keyed by column name (any name, `__proto__` included). Values as JSON: null is SQL NULL; a floating-point NaN or ' +
      'infinity is the string "NaN", "Infinity" or "-Infinity" (JSON has no number for them; exports write the same in CSV); ' +
      'integers beyond ±2^53 are decimal strings; dates and timestamps ISO 8601 strings (or "infinity", "-infinity"); ' +
      'lists are arrays, structs objects, maps arrays of {key, value}. Values nested more than 64 levels deep are refused (400).',
  );

export const HmdaExportSchema = z.object({
  id: z.string().describe('Content address: sha256 of the question and the warehouse version it was answered from.'),
  csv_url: z.string().describe('Every row as CSV with a header line. Needs an API key, like the query; supports Range requests to resume.'),
  parquet_url: z.string().describe('Every row as Parquet, with the column types. Needs an API key; supports Range requests.'),
  rows: z.int().describe('Rows in each file: the whole result.'),
  csv_bytes: z.int(),
  parquet_bytes: z.int(),
  created_at: z.string().describe('When the files were written (ISO 8601).'),
  expires_at: z
    .string()
    .describe(`When the files are deleted (ISO 8601), ${HMDA_EXPORT_TTL_HOURS} hours after they were written; ask again for new ones.`),
});
export type HmdaExport = z.infer<typeof HmdaExportSchema>;

export const HmdaAnswerSchema = z.object({
  kind: z.enum(['preset', 'sql']),
  preset: z.enum(PRESET_NAMES).nullable(),
  filters: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .describe('The preset filters applied (codes for coded fields); {} for sql.'),
  columns: z.array(z.string()),
  rows: z.array(HmdaRowSchema).describe('Every row when `complete`; otherwise the first rows, and `export` has every row.'),
  row_count: z.int().describe('Rows in the whole result.'),
  complete: z
    .boolean()
    .describe(
      `True when \`rows\` holds the whole result; false when it was over ${HMDA_ANSWER_BUDGET_BYTES.toLocaleString('en-US')} bytes: then \`export\` links to files with every row.`,
    ),
  export: HmdaExportSchema.nullable(),
  sql: z.string().describe('The SQL that ran; preset filter values are bound parameters, listed in `params`.'),
  params: z.array(z.union([z.string(), z.number()])),
  synthetic: z.boolean().describe('True when the warehouse holds SYNTHETIC benchmark rows, not real loans.'),
  partial: z.boolean().describe('True when the warehouse holds extracts, not whole state-years: totals are not those of any geography.'),
  as_of: z.string().describe('The last day of the latest activity year loaded (YYYY-MM-DD).'),
  warehouse_version: z.string().describe('Short fingerprint of the loaded files; it changes whenever a state-year is published.'),
  source: z.string(),
  sources: z.array(SourceSchema),
});
export type HmdaAnswer = z.infer<typeof HmdaAnswerSchema>;

/** Where the HMDA totals are whether or not loan records are loaded: the MCP tools and the REST catalogue. */
export const HMDA_TOTALS_POINTER =
  'Totals by nation, state and county (originations, denials, loan types, purposes, sex, race, age) are always here: MCP find_series ' +
  '{"query":"originations Texas"} and analyze_data {"operation":"rank","series":"hmda/*/originations"}; REST /api/v1/series?query=. ' +
  'So are the filers (lenders) of a year by records reported and share of the national total: find_series {"query":"top lenders 2020"}.';
