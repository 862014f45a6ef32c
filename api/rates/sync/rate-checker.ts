// CFPB Rate Checker adapter (opt-in dataset `rate_checker`): for each state × FICO tier × LTV tier ×
// product × term it asks the public `rate-checker` endpoint for the histogram of rates lenders offer
// (`{data: {"6.125": 3, ...}, timestamp}`), keeps the mode and records how many offers it counted.
import { createHash } from 'node:crypto';
import { SourceFormatError, SourceUnavailableError, ValidationError } from '../../sync/errors.ts';
import { listOption } from '../../sync/runner.ts';
import type { DatasetDefinition, SyncContext } from '../../sync/types.ts';
import { FICO_RANGES, LTV_PERCENT, STATE_CODES, type FicoTier, type LoanTerm, type LtvTier, type ProductType, type StateCode } from '../params.ts';
import { VALUE_RANGE } from './validate.ts';
import { countLenderRows, upsertLenderRows, type LenderRow } from './lender-store.ts';

export const RATE_CHECKER_DATASET = 'rate_checker';
export const RATE_CHECKER_URL = 'https://www.consumerfinance.gov/oah-api/rates/rate-checker';
export const RATE_CHECKER_SOURCE = 'CFPB Rate Checker';

const LOAN_TYPES: Record<ProductType, string> = { conventional: 'CONF', fha: 'FHA', va: 'VA', jumbo: 'JUMBO' };
/**
 * Property prices asked with each product: conforming, FHA and VA amounts stay under every county's
 * floor limit at 95% LTV; the jumbo amount is above the 2026 high-cost ceiling (1,249,125) at 75%.
 */
const PRICES: Record<ProductType, number> = { conventional: 400_000, fha: 400_000, va: 400_000, jumbo: 2_000_000 };
/** The Rate Checker quotes 30- and 15-year fixed terms only. */
const TERMS: LoanTerm[] = [30, 15];

export interface RateCheckerCell {
  state: StateCode;
  fico: FicoTier;
  ltv: LtvTier;
  productType: ProductType;
  loanTerm: LoanTerm;
}

export interface RateHistogram {
  mode: number;
  /** Offers counted (sum of the histogram). */
  size: number;
  /** YYYY-MM-DD of the data, from `timestamp`; undefined when the endpoint gave none. */
  date: string | undefined;
}

export function rateCheckerQuery(cell: RateCheckerCell): URLSearchParams {
  const price = PRICES[cell.productType];
  const [minfico, maxfico] = FICO_RANGES[cell.fico];
  return new URLSearchParams({
    state: cell.state,
    minfico: String(minfico),
    maxfico: String(maxfico),
    price: String(price),
    loan_amount: String(Math.round((price * LTV_PERCENT[cell.ltv]) / 100)),
    rate_structure: 'fixed',
    loan_term: String(cell.loanTerm),
    loan_type: LOAN_TYPES[cell.productType],
  });
}

/**
 * Reads one documented response. The mode is the rate offered by the most lenders; on a tie the
 * lowest such rate. Returns undefined for an empty histogram (no lender quotes that cell).
 */
export function parseRateCheckerResponse(body: string, origin: string): RateHistogram | undefined {
  let parsed: { data?: unknown; timestamp?: unknown };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    throw new SourceFormatError(origin, undefined, 'response is not JSON');
  }
  if (parsed.data === null || typeof parsed.data !== 'object' || Array.isArray(parsed.data)) {
    throw new SourceFormatError(origin, undefined, 'response has no `data` object of rate → count');
  }
  let mode: { rate: number; count: number } | undefined;
  let size = 0;
  for (const [key, value] of Object.entries(parsed.data as Record<string, unknown>)) {
    const rate = Number(key);
    if (!/^\d+(\.\d+)?$/.test(key) || rate < VALUE_RANGE.min || rate > VALUE_RANGE.max) {
      throw new SourceFormatError(origin, undefined, `rate ${JSON.stringify(key)} is not a percent between ${VALUE_RANGE.min} and ${VALUE_RANGE.max}`);
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new SourceFormatError(origin, undefined, `count for rate ${key} is not a non-negative integer`);
    }
    size += value;
    if (value > 0 && (!mode || value > mode.count || (value === mode.count && rate < mode.rate))) mode = { rate, count: value };
  }
  if (!mode) return undefined;
  const timestamp = typeof parsed.timestamp === 'string' ? parsed.timestamp.slice(0, 10) : undefined;
  const date = timestamp && /^\d{4}-\d{2}-\d{2}$/.test(timestamp) ? timestamp : undefined;
  return { mode: Math.round(mode.rate * 1000) / 1000, size, date };
}

export interface RateCheckerOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Requests in flight at once (be polite to a public endpoint). */
  concurrency?: number;
}

function cellsFor(context: SyncContext): RateCheckerCell[] {
  const pick = <T extends string | number>(name: string, all: readonly T[], parse: (text: string) => T): T[] => {
    const listed = listOption(context.options, name);
    if (!listed) return [...all];
    const values = listed.map(parse);
    const bad = values.filter((value) => !all.includes(value));
    if (bad.length > 0) throw new ValidationError(`--${name}: ${bad.join(', ')} not among ${all.join(', ')}`);
    return values;
  };
  const states = pick('states', STATE_CODES, (text) => text.toUpperCase() as StateCode);
  const products = pick('products', Object.keys(LOAN_TYPES) as ProductType[], (text) => text.toLowerCase() as ProductType);
  const terms = pick('terms', TERMS, (text) => Number(text) as LoanTerm);
  const cells: RateCheckerCell[] = [];
  for (const state of states)
    for (const productType of products)
      for (const loanTerm of terms)
        for (const fico of [1, 2, 3, 4, 5] as FicoTier[])
          for (const ltv of [1, 2] as LtvTier[]) cells.push({ state, fico, ltv, productType, loanTerm });
  return cells;
}

export function createRateCheckerDataset(options: RateCheckerOptions = {}): DatasetDefinition {
  const baseUrl = options.baseUrl ?? RATE_CHECKER_URL;
  return {
    name: RATE_CHECKER_DATASET,
    description: 'CFPB Rate Checker: most common offered rate by state × FICO × LTV × product × term (opt-in; --states CO,TX)',
    syncByDefault: false,
    async load(tx, context) {
      const doFetch = options.fetch ?? fetch;
      const cells = cellsFor(context);
      const today = context.clock().toISOString().slice(0, 10);
      const hash = createHash('sha256');
      const rows: LenderRow[] = [];
      let empty = 0;
      let next = 0;
      let done = 0;
      let failed = false;
      const worker = async () => {
        for (let index = next++; index < cells.length && !failed; index = next++) {
          const cell = cells[index] as RateCheckerCell;
          const url = `${baseUrl}?${rateCheckerQuery(cell).toString()}`;
          let response: Response;
          try {
            response = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
          } catch (error) {
            throw new SourceUnavailableError(`${url}: Rate Checker unreachable (${(error as Error).message})`);
          }
          const body = await response.text();
          if (!response.ok) throw new SourceUnavailableError(`${url}: Rate Checker answered HTTP ${response.status}`);
          hash.update(`${index}:${body}`);
          const histogram = parseRateCheckerResponse(body, url);
          if (histogram) {
            rows.push({ ...cell, source: RATE_CHECKER_SOURCE, sourceKind: 'rate_checker', sourceUrl: url,
              date: histogram.date ?? today, rate: histogram.mode, distributionSize: histogram.size });
          } else {
            empty += 1;
          }
          context.progress((done += 1), cells.length);
        }
      };
      // The first failure stops the other workers: the dataset fails as a whole.
      const guarded = () => worker().catch((error: unknown) => {
        failed = true;
        throw error;
      });
      await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, guarded));
      if (rows.length === 0) throw new ValidationError(`Rate Checker returned no offers for any of ${cells.length} cells`);
      const changed = await upsertLenderRows(tx, rows);
      const asOf = rows.map((row) => row.date).sort().at(-1) ?? today;
      return {
        asOf,
        sourceUrl: baseUrl,
        checksum: hash.digest('hex'),
        rows: await countLenderRows(tx, 'rate_checker'),
        changed,
        details: { cells: cells.length, withOffers: rows.length, empty, offers: rows.reduce((sum, row) => sum + (row.distributionSize ?? 0), 0) },
      };
    },
  };
}
