// The CFPB Rate Checker's public endpoint (`oah-api/rates/rate-checker`): the query for one cell, the
// reading of its answer (`{data: {"6.125": 3, ...}, timestamp, request}`: lenders offering each rate)
// and a polite client: requests spaced out across workers, and retried with backoff when the
// publisher is busy or the network drops (429, 5xx, timeouts), honouring Retry-After.
import { SourceFormatError } from '../../sync/errors.ts';
import { FICO_RANGES, LTV_PERCENT, type FicoTier, type LoanTerm, type LtvTier, type ProductType, type StateCode } from '../contract.ts';
import { VALUE_RANGE } from './validate.ts';

export const RATE_CHECKER_URL = 'https://www.consumerfinance.gov/oah-api/rates/rate-checker';

/** The Rate Checker's loan types for our products (it quotes no USDA loans). */
export const RATE_CHECKER_LOAN_TYPES: Partial<Record<ProductType, string>> = { conventional: 'CONF', fha: 'FHA', va: 'VA', jumbo: 'JUMBO' };
/**
 * Property prices asked with each product: conforming, FHA and VA amounts stay under every county's
 * floor limit at 95% LTV; the jumbo amount is above the 2026 high-cost ceiling (1,249,125) at 75%.
 */
const PRICES: Partial<Record<ProductType, number>> = { conventional: 400_000, fha: 400_000, va: 400_000, jumbo: 2_000_000 };

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
  const loanType = RATE_CHECKER_LOAN_TYPES[cell.productType];
  if (price === undefined || loanType === undefined) throw new Error(`The Rate Checker does not quote ${cell.productType} loans`);
  const [minfico, maxfico] = FICO_RANGES[cell.fico];
  return new URLSearchParams({
    state: cell.state,
    minfico: String(minfico),
    maxfico: String(maxfico),
    price: String(price),
    loan_amount: String(Math.round((price * LTV_PERCENT[cell.ltv]) / 100)),
    rate_structure: 'fixed',
    loan_term: String(cell.loanTerm),
    loan_type: loanType,
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

export interface PoliteClientOptions {
  fetch?: typeof fetch;
  /** Least time between two requests, across all workers (default 250 ms: at most 4 a second). */
  minIntervalMs?: number;
  /** Tries after the first one for a busy or unreachable publisher (default 3). */
  retries?: number;
  /** First backoff; doubles each retry (default 2 s). A Retry-After header wins, up to 60 s. */
  retryBaseMs?: number;
  /** Per-request time limit (default 30 s). */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch (tests drive a fake clock with `sleep`). */
  now?: () => number;
}

/** A request that failed for good: `reason` is one sentence, `unreachable` when no answer came at all. */
export class RateCheckerRequestError extends Error {
  readonly unreachable: boolean;

  constructor(message: string, unreachable: boolean) {
    super(message);
    this.name = 'RateCheckerRequestError';
    this.unreachable = unreachable;
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 60_000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - Date.now()), 60_000);
}

/** `get(url)` → the body of a 200 answer, spaced out and retried; throws RateCheckerRequestError. */
export function createPoliteClient(options: PoliteClientOptions = {}): { get(url: string): Promise<string>; requests(): number } {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const minInterval = options.minIntervalMs ?? 250;
  const retries = options.retries ?? 3;
  const base = options.retryBaseMs ?? 2_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  let nextSlot = 0;
  let sent = 0;

  async function slot(): Promise<void> {
    const time = now();
    const at = Math.max(time, nextSlot);
    nextSlot = at + minInterval;
    if (at > time) await sleep(at - time);
  }

  async function once(url: string): Promise<{ ok: true; body: string } | { ok: false; retry: boolean; wait?: number; reason: string; unreachable: boolean }> {
    await slot();
    sent += 1;
    let response: Response;
    try {
      response = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (error as Error).message;
      return { ok: false, retry: true, reason: `no answer: ${reason}`, unreachable: true };
    }
    const body = await response.text();
    if (response.ok) return { ok: true, body };
    const busy = response.status === 429 || response.status >= 500;
    return { ok: false, retry: busy, wait: retryAfterMs(response.headers.get('retry-after')), reason: `answered HTTP ${response.status}`, unreachable: false };
  }

  return {
    requests: () => sent,
    async get(url) {
      for (let attempt = 0; ; attempt += 1) {
        const result = await once(url);
        if (result.ok) return result.body;
        if (!result.retry || attempt >= retries) {
          const tries = attempt + 1;
          throw new RateCheckerRequestError(`${result.reason}${tries > 1 ? ` after ${tries} tries` : ''}`, result.unreachable);
        }
        await sleep(result.wait ?? base * 2 ** attempt);
      }
    },
  };
}
