// Imports a lender's own rate sheet (opt-in dataset `rate_sheet`, `npm run sync -- rate_sheet --file
// sheet.csv`): `state,fico_tier,ltv_tier,product_type,loan_term,rate,date,source`. Every bad row is
// reported as file:line; one bad row rejects the whole file. Rows add or update cells, never delete.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseDelimited, type DelimitedRecord } from '../../sync/delimited.ts';
import { SourceFormatError, SourceUnavailableError, ValidationError } from '../../sync/errors.ts';
import { archiveLender } from '../snapshot.ts';
import type { DatasetDefinition } from '../../sync/types.ts';
import {
  FICO_TIERS,
  LOAN_TERMS,
  LTV_TIERS,
  PRODUCT_TYPES,
  STATE_CODES,
  type FicoTier,
  type LoanTerm,
  type LtvTier,
  type ProductType,
  type StateCode,
} from '../contract.ts';
import { isCalendarDate } from './fred-csv.ts';
import { VALUE_RANGE } from './validate.ts';
import { countLenderRows, upsertLenderRows, type LenderRow } from './lender-store.ts';

export const RATE_SHEET_DATASET = 'rate_sheet';
export const RATE_SHEET_COLUMNS = ['state', 'fico_tier', 'ltv_tier', 'product_type', 'loan_term', 'rate', 'date', 'source'] as const;

export interface RowError {
  line: number;
  problem: string;
}

/** A rate sheet with bad rows: the message lists each as file:line. */
export class RateSheetError extends SourceFormatError {
  readonly errors: RowError[];

  constructor(file: string, errors: RowError[]) {
    const [first, ...rest] = errors;
    const shown = rest
      .slice(0, 49)
      .map((error) => `\n${file}:${error.line}: ${error.problem}`)
      .join('');
    const more = rest.length > 49 ? `\n… and ${rest.length - 49} more` : '';
    super(file, first?.line, `${first?.problem ?? 'invalid rate sheet'}${shown}${more}`);
    this.name = 'RateSheetError';
    this.errors = errors;
  }
}

/**
 * The sheet's records, fields trimmed (a lender name may hold a comma when quoted). A quote left open
 * is the row's error, said as every other row error is.
 */
function readRecords(text: string, file: string): DelimitedRecord[] {
  try {
    return parseDelimited(text, ',', file).map(({ line, fields }) => ({ line, fields: fields.map((field) => field.trim()) }));
  } catch (error) {
    if (error instanceof SourceFormatError) throw new RateSheetError(file, [{ line: error.line ?? 1, problem: 'unclosed quote' }]);
    throw error;
  }
}

const tierFrom = <T extends number>(labels: Record<number, string>, text: string): T | undefined => {
  const normalised = text.trim().replace(/%$/, '');
  for (const [tier, label] of Object.entries(labels)) {
    if (normalised === tier || normalised === label.replace(/%$/, '')) return Number(tier) as T;
  }
  return undefined;
};

/** Parses and checks a whole sheet; throws RateSheetError listing every bad row. */
export function parseRateSheet(text: string, file: string, sourceUrl: string): LenderRow[] {
  const [first, ...records] = readRecords(text, file);
  const header = first?.line === 1 ? first.fields.map((name) => name.toLowerCase()) : undefined;
  if (!header || RATE_SHEET_COLUMNS.some((column) => !header.includes(column))) {
    throw new RateSheetError(file, [{ line: 1, problem: `header must name the columns ${RATE_SHEET_COLUMNS.join(',')}` }]);
  }
  const at = Object.fromEntries(RATE_SHEET_COLUMNS.map((column) => [column, header.indexOf(column)])) as Record<
    (typeof RATE_SHEET_COLUMNS)[number],
    number
  >;
  const errors: RowError[] = [];
  const rows: LenderRow[] = [];
  const seen = new Map<string, number>();
  for (const { line: lineNumber, fields } of records) {
    if (fields.length !== header.length) {
      errors.push({ line: lineNumber, problem: `expected ${header.length} fields, found ${fields.length}` });
      continue;
    }
    const get = (column: (typeof RATE_SHEET_COLUMNS)[number]) => fields[at[column]] ?? '';
    const problems: string[] = [];
    const state = get('state').toUpperCase();
    if (!(STATE_CODES as readonly string[]).includes(state))
      problems.push(`state ${JSON.stringify(get('state'))} is not one of the 50 states or DC`);
    const fico = tierFrom<FicoTier>(FICO_TIERS, get('fico_tier'));
    if (fico === undefined)
      problems.push(`fico_tier ${JSON.stringify(get('fico_tier'))} must be 1-5 or one of ${Object.values(FICO_TIERS).join(', ')}`);
    const ltv = tierFrom<LtvTier>(LTV_TIERS, get('ltv_tier'));
    if (ltv === undefined) problems.push(`ltv_tier ${JSON.stringify(get('ltv_tier'))} must be 1, 2, 75% or 95%`);
    const productType = get('product_type').toLowerCase();
    if (!Object.hasOwn(PRODUCT_TYPES, productType))
      problems.push(`product_type ${JSON.stringify(get('product_type'))} must be one of ${Object.keys(PRODUCT_TYPES).join(', ')}`);
    const loanTerm = Number(get('loan_term'));
    if (!Object.hasOwn(LOAN_TERMS, get('loan_term')))
      problems.push(`loan_term ${JSON.stringify(get('loan_term'))} must be one of ${Object.keys(LOAN_TERMS).join(', ')}`);
    const rate = Number(get('rate').replace(/%$/, ''));
    if (!/^\d+(\.\d+)?%?$/.test(get('rate')) || rate < VALUE_RANGE.min || rate > VALUE_RANGE.max) {
      problems.push(`rate ${JSON.stringify(get('rate'))} must be a percent between ${VALUE_RANGE.min} and ${VALUE_RANGE.max}`);
    }
    const date = get('date');
    if (!isCalendarDate(date)) problems.push(`date ${JSON.stringify(date)} must be a real day written YYYY-MM-DD`);
    const source = get('source');
    if (source === '' || source.length > 200) problems.push('source must name the lender (1-200 characters)');
    if (problems.length > 0) {
      errors.push({ line: lineNumber, problem: problems.join('; ') });
      continue;
    }
    const key = [source, state, fico, ltv, productType, loanTerm, date].join('|');
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push({ line: lineNumber, problem: `repeats the cell and date of line ${earlier}` });
      continue;
    }
    seen.set(key, lineNumber);
    rows.push({
      source,
      sourceKind: 'rate_sheet',
      sourceUrl,
      state: state as StateCode,
      fico: fico as FicoTier,
      ltv: ltv as LtvTier,
      productType: productType as ProductType,
      loanTerm: loanTerm as LoanTerm,
      date,
      rate: Math.round(rate * 1000) / 1000,
      distributionSize: null,
    });
  }
  if (errors.length > 0) throw new RateSheetError(file, errors);
  if (rows.length === 0) throw new ValidationError(`${file}: the rate sheet has no rows`);
  return rows;
}

export const rateSheetDataset: DatasetDefinition = {
  name: RATE_SHEET_DATASET,
  description: "A lender's own rate sheet CSV (opt-in; --file sheet.csv [--url https://lender.example/rates])",
  syncByDefault: false,
  archive: (tx) => archiveLender(tx, 'rate_sheet'),
  async load(tx, context) {
    const file = context.options.file;
    if (typeof file !== 'string') throw new ValidationError('rate_sheet needs --file <path to the CSV>');
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(file);
    } catch (error) {
      throw new SourceUnavailableError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    // Cited in responses: the lender's published URL when given, else the file's name only (no
    // server paths in public responses).
    const url = typeof context.options.url === 'string' ? context.options.url : `file:${path.basename(file)}`;
    const rows = parseRateSheet(bytes.toString('utf8'), file, url);
    context.progress(rows.length, rows.length);
    const changed = await upsertLenderRows(tx, rows);
    return {
      asOf:
        rows
          .map((row) => row.date)
          .sort()
          .at(-1) ?? '',
      sourceUrl: url,
      checksum: createHash('sha256').update(bytes).digest('hex'),
      rows: await countLenderRows(tx, 'rate_sheet'),
      changed,
      details: { file: path.basename(file), imported: rows.length, sources: [...new Set(rows.map((row) => row.source))] },
    };
  },
};
