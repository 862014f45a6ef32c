// query_hmda: HMDA loan records — preset queries (rates, approvals, denials, demographics, lender
// rankings) or a read-only SQL SELECT over the `lar` view — for key holders only.
import { z } from 'zod';
import { sourceSchema, type ToolContext } from '../tool-kit.ts';
import { PRESET_NAMES } from '../../hmda/presets.ts';
import { DEMOGRAPHIC_DIMENSIONS } from '../../hmda/filters.ts';
import { SQL_BYTE_CAP, SQL_ROW_CAP } from '../../hmda/service.ts';
import { BadRequestError, UnauthorizedError } from '../../platform/http/errors.ts';
import { howToGetAKey } from '../../access/identity.ts';

const MAX_TEXT_ROWS = 20;
/** The text table shows the start of long values; structured content has them whole. */
const MAX_CELL_CHARACTERS = 200;
const ROW_CAP = SQL_ROW_CAP.toLocaleString('en-US');
const BYTE_CAP = `${SQL_BYTE_CAP / 2 ** 20} MiB`;

export const queryHmdaTool = {
  name: 'query_hmda',
  title: 'Query HMDA loan records',
  requiresKey: true,
  description:
    'HMDA (Home Mortgage Disclosure Act) loan/application records, 2018–2024. Either a preset — rates (median/mean ' +
    'interest rate and rate spread by loan type), approvals, denials (rates and top reasons), demographics (by race, ' +
    'ethnicity, sex, age or income band), lender_rankings (top lenders by originations or volume) — with filters, or ' +
    `\`sql\`: one read-only SELECT over the \`lar\` view (and \`lenders\`), capped at ${ROW_CAP} rows and ${BYTE_CAP} of rows. Requires an API key ` +
    '(X-API-Key header). Results include the SQL run and the data as-of; synthetic benchmark data is flagged.',
  input: {
    preset: z.enum(PRESET_NAMES).optional().describe('A preset query. Give either preset or sql.'),
    sql: z.string().max(10_000).optional().describe('One read-only SELECT over `lar` (columns as in the FFIEC public LAR, e.g. action_taken, loan_type, state_code, interest_rate) and `lenders`.'),
    year: z.number().int().min(2018).max(2024).optional().describe('Activity year, 2018–2024.'),
    state: z.string().length(2).optional().describe('2-letter state code.'),
    county: z.string().regex(/^\d{5}$/).optional().describe('5-digit county FIPS code.'),
    loan_type: z.string().optional().describe('conventional, fha, va or usda.'),
    loan_purpose: z.string().optional().describe('purchase, home_improvement, refinance, cash_out_refinance, other.'),
    limit: z.number().int().min(1).max(100).optional().describe('Rows for lender_rankings and denial reasons (1–100, default 10).'),
    by: z.enum(DEMOGRAPHIC_DIMENSIONS).optional().describe('demographics only: group by race, ethnicity, sex, age or income.'),
  },
  output: {
    kind: z.enum(['preset', 'sql']),
    preset: z.string().nullable(),
    columns: z.array(z.string()),
    rows: z.array(z.record(z.string(), z.unknown())),
    row_count: z.number().int(),
    truncated: z.boolean(),
    truncated_reason: z.enum(['rows', 'bytes']).nullable().describe(`Why rows were cut: more than ${ROW_CAP} rows, or more than ${BYTE_CAP} of rows (as JSON).`),
    sql: z.string().describe('The SQL that ran.'),
    synthetic: z.boolean().describe('True when the warehouse holds synthetic benchmark data, not real loans.'),
    as_of: z.string(),
    sources: z.array(sourceSchema),
  },
  async run(args: Record<string, unknown>, { deps, caller }: ToolContext) {
    if (caller.kind !== 'key') {
      throw new UnauthorizedError(`query_hmda needs an API key. ${howToGetAKey(deps.config)}`);
    }
    const { preset, sql, ...filters } = args as { preset?: string; sql?: string } & Record<string, unknown>;
    if ((preset === undefined) === (sql === undefined)) throw new BadRequestError("Give exactly one of 'preset' (rates, approvals, denials, demographics, lender_rankings) or 'sql'.");
    const result = sql !== undefined ? await deps.services.hmda.sql(sql, { keyId: caller.keyId }) : await deps.services.hmda.preset(preset ?? '', filters);
    const rows = result.rows as Record<string, unknown>[];
    const columns = 'columns' in result ? result.columns : Object.keys(rows[0] ?? {});
    const sources = [{ url: result.source_url, as_of: result.as_of, name: result.source }];
    const structured = {
      kind: sql !== undefined ? ('sql' as const) : ('preset' as const),
      preset: preset ?? null,
      columns,
      rows,
      row_count: rows.length,
      truncated: 'truncated' in result ? result.truncated : false,
      truncated_reason: 'truncated_reason' in result ? result.truncated_reason : null,
      sql: result.sql,
      synthetic: result.synthetic,
      as_of: result.as_of,
      sources,
    };
    const cell = (value: unknown) => {
      const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? '');
      return text.length > MAX_CELL_CHARACTERS ? `${text.slice(0, MAX_CELL_CHARACTERS)}…` : text;
    };
    const table = rows.slice(0, MAX_TEXT_ROWS).map((row) => columns.map((column) => cell(row[column])).join(' | '));
    const text = [
      result.synthetic ? 'NOTE: SYNTHETIC benchmark data, not real loans.' : '',
      columns.join(' | '),
      ...table,
      rows.length > MAX_TEXT_ROWS ? `… ${rows.length - MAX_TEXT_ROWS} more rows in structured content.` : '',
      structured.truncated_reason === 'rows' ? `Cut at ${ROW_CAP} rows: aggregate or filter for a complete answer.` : '',
      structured.truncated_reason === 'bytes' ? `Cut at ${BYTE_CAP} of rows: select fewer or narrower columns for a complete answer.` : '',
      `Source: ${result.source}, ${result.source_url} (as of ${result.as_of})`,
    ].filter(Boolean).join('\n');
    return { structured, text };
  },
};
