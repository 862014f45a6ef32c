// One question about HMDA loan records, answered the way every face returns it (the MCP tool
// query_hmda, GET /hmda/presets/{preset}, POST /hmda/sql): the rows with the SQL, as-of and source,
// whole when they fit the answer budget; otherwise the first rows, the row count and an export of
// every row as CSV and Parquet (written once per question and warehouse version).
import { BadRequestError } from '../platform/errors.ts';
import { PRESET_NAMES, type PresetName } from './codes.ts';
import { HMDA_SUMMARY_ROWS, type HmdaAnswer, type HmdaExport, type HmdaFilters, type HmdaQuery } from './contract.ts';
import type { JsonRow } from './duck.ts';
import { exportId, type ExportFiles, type ExportRecord, type ExportStore } from './exports.ts';
import type { RunContext, Sandbox } from './sandbox.ts';

const FILTERS = ['year', 'state', 'county', 'msa', 'loan_type', 'loan_purpose', 'lien', 'lei'] as const;

/** The filters and options each preset takes; any other is refused, so a caller learns it was not applied. */
export const PRESET_OPTIONS: Readonly<Record<PresetName, readonly (keyof HmdaFilters)[]>> = {
  rates: FILTERS,
  approvals: FILTERS,
  denials: [...FILTERS, 'limit'],
  demographics: [...FILTERS, 'by'],
  lender_rankings: [...FILTERS, 'limit', 'sort'],
};

/** What an answer says about where its rows come from. */
export interface AnswerMeta {
  as_of: string;
  source: string;
  source_url: string;
  synthetic: boolean;
  partial: boolean;
  warehouse_version: string;
}

export interface PresetRows {
  filters: Record<string, string | number>;
  columns: string[];
  rows: readonly JsonRow[];
  sql: string;
  params: (string | number)[];
}

export interface AnswerDeps {
  /** The loaded warehouse's meta and version (throws 503 while nothing is loaded). */
  current(): AnswerMeta;
  preset(name: PresetName, filters: Record<string, unknown>): Promise<PresetRows>;
  /** Writes every row of a preset to the two files; resolves to the row count. */
  exportPreset(name: PresetName, filters: Record<string, unknown>, files: ExportFiles): Promise<number>;
  sandbox: Pick<Sandbox, 'question'>;
  exports: ExportStore;
  /** Where downloads are served: `<base>/<id>.csv`. */
  downloadBase: string;
  /** Rows a custom query may return inline before it counts as over the budget. */
  rowCap: number;
  /** Bytes of JSON an answer may take (HMDA_ANSWER_BUDGET_BYTES; smaller only in tests). */
  budgetBytes: number;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

function exportOf(record: ExportRecord, downloadBase: string): HmdaExport {
  return {
    id: record.id,
    csv_url: `${downloadBase}/${record.id}.csv`,
    parquet_url: `${downloadBase}/${record.id}.parquet`,
    rows: record.rows,
    csv_bytes: record.csvBytes,
    parquet_bytes: record.parquetBytes,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
  };
}

type Base = Omit<HmdaAnswer, 'rows' | 'row_count' | 'complete' | 'export'>;

/** The first rows (at most HMDA_SUMMARY_ROWS) that keep the answer within the budget. */
function firstRows(answer: HmdaAnswer, rows: readonly JsonRow[], budgetBytes: number): JsonRow[] {
  const shown: JsonRow[] = [];
  let bytes = bytesOf(answer);
  for (const row of rows.slice(0, HMDA_SUMMARY_ROWS)) {
    const size = bytesOf(row) + 1;
    if (bytes + size > budgetBytes) break;
    shown.push(row);
    bytes += size;
  }
  return shown;
}

/** The answer whole when it fits the budget, else its first rows and the export of every row. */
async function fit(
  deps: AnswerDeps,
  context: RunContext,
  base: Base,
  rows: readonly JsonRow[],
  fits: boolean,
  question: unknown,
  produce: (files: ExportFiles) => Promise<number>,
): Promise<HmdaAnswer> {
  if (fits) {
    const whole: HmdaAnswer = { ...base, rows: [...rows], row_count: rows.length, complete: true, export: null };
    if (bytesOf(whole) <= deps.budgetBytes) return whole;
  }
  // The export's bytes count against the asking key's share of the export space.
  const record = await deps.exports.ensure(exportId(question, base.warehouse_version), produce, context.keyId);
  const summary: HmdaAnswer = { ...base, rows: [], row_count: record.rows, complete: false, export: exportOf(record, deps.downloadBase) };
  return { ...summary, rows: firstRows(summary, rows, deps.budgetBytes) };
}

function base(meta: AnswerMeta, fields: Pick<Base, 'kind' | 'preset' | 'filters' | 'columns' | 'sql' | 'params'>): Base {
  const { source_url: url, ...rest } = meta;
  return { ...fields, ...rest, sources: [{ url, as_of: meta.as_of, name: meta.source }] };
}

export async function answerQuery(deps: AnswerDeps, query: HmdaQuery, context: RunContext = {}): Promise<HmdaAnswer> {
  const { preset, sql, ...filters } = query;
  if ((preset === undefined) === (sql === undefined)) {
    throw new BadRequestError(`Give exactly one of 'preset' (${PRESET_NAMES.join(', ')}) or 'sql'.`);
  }
  if (sql !== undefined) {
    const given = Object.entries(filters)
      .filter(([, value]) => value !== undefined)
      .map(([name]) => name);
    if (given.length > 0) {
      throw new BadRequestError(
        `The filters ${given.map((name) => `'${name}'`).join(', ')} apply to presets; with 'sql', write them into the query (e.g. WHERE year = 2024 AND state = 'CO').`,
      );
    }
    const meta = deps.current();
    // One process for the question, its export included, within the query time limit: an export is
    // no way to hold a process longer than a query may.
    return deps.sandbox.question(sql, context, async (lane) => {
      const run = await lane.run({ rowCap: deps.rowCap, byteCap: deps.budgetBytes });
      const fields = base(meta, { kind: 'sql', preset: null, filters: {}, columns: run.columns, sql, params: [] });
      return fit(deps, context, fields, run.rows, !run.truncated, { kind: 'sql', sql }, (files) => lane.export(files));
    });
  }
  const name = preset as PresetName;
  const misplaced = Object.entries(filters).filter(
    ([option, value]) => value !== undefined && !PRESET_OPTIONS[name].includes(option as keyof HmdaFilters),
  );
  if (misplaced.length > 0) {
    const owners = (option: string) =>
      PRESET_NAMES.filter((other) => PRESET_OPTIONS[other].includes(option as keyof HmdaFilters)).join(' and ');
    throw new BadRequestError(
      `${misplaced.map(([option]) => `'${option}' applies to ${owners(option)} only`).join('; ')}. The preset ${name} takes ${PRESET_OPTIONS[name].join(', ')}.`,
    );
  }
  const meta = deps.current();
  const result = await deps.preset(name, filters);
  // The filters that applied, defaults included (limit 10), but not the options of other presets.
  const applied = Object.fromEntries(
    Object.entries(result.filters).filter(([option]) => PRESET_OPTIONS[name].includes(option as keyof HmdaFilters)),
  );
  const fields = base(meta, {
    kind: 'preset',
    preset: name,
    filters: applied,
    columns: result.columns,
    sql: result.sql,
    params: result.params,
  });
  return fit(deps, context, fields, result.rows, true, { kind: 'preset', preset: name, filters: applied }, (files) =>
    deps.exportPreset(name, filters, files),
  );
}
