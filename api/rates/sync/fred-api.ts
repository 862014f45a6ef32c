// Reads a series from the FRED API (`/fred/series/observations`, JSON), used instead of the keyless
// CSV when FRED_API_KEY is set. The base URL is injectable so tests serve recorded responses.
import { createHash } from 'node:crypto';
import { SourceFormatError, SourceUnavailableError } from '../../sync/errors.ts';
import { isCalendarDate, parseValue, type Observation } from './fred-csv.ts';

export interface FredApiOptions {
  apiKey: string;
  /** Default https://api.stlouisfed.org/fred */
  baseUrl: string;
  fetch?: typeof fetch;
}

interface FredObservationsPage {
  count?: unknown;
  offset?: unknown;
  limit?: unknown;
  observations?: unknown;
}

export interface FredApiResult {
  observations: Observation[];
  checksum: string;
  /** The request without the key, for messages and records. */
  origin: string;
}

/** Fetches every observation of `seriesId`, following FRED's offset paging. */
export async function fetchFredSeries(seriesId: string, options: FredApiOptions): Promise<FredApiResult> {
  const doFetch = options.fetch ?? fetch;
  const origin = `${options.baseUrl}/series/observations?series_id=${seriesId}&file_type=json`;
  const hash = createHash('sha256');
  const observations: Observation[] = [];
  let offset = 0;
  for (let page = 0; page < 100; page += 1) {
    const url = `${origin}&api_key=${encodeURIComponent(options.apiKey)}&offset=${offset}`;
    let response: Response;
    try {
      response = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new SourceUnavailableError(`${origin}: FRED API unreachable (${(error as Error).message})`);
    }
    const body = await response.text();
    if (!response.ok) {
      throw new SourceUnavailableError(`${origin}: FRED API answered ${response.status}: ${fredErrorMessage(body)}`);
    }
    hash.update(body);
    const parsed = parsePage(body, origin, offset);
    observations.push(...parsed.observations);
    // Advance by what FRED sent, missing values included: `count` counts them too.
    offset += parsed.received;
    if (parsed.received === 0 || offset >= parsed.count) break;
  }
  return { observations: sortAndCheck(observations, origin), checksum: hash.digest('hex'), origin };
}

function fredErrorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error_message?: unknown };
    if (typeof parsed.error_message === 'string') return parsed.error_message;
  } catch {
    // not JSON: fall through to a short excerpt
  }
  return body.slice(0, 200);
}

/** Parses one page of the documented JSON; `line` in errors is the observation's index. */
export function parsePage(body: string, origin: string, offset: number): { count: number; received: number; observations: Observation[] } {
  let page: FredObservationsPage;
  try {
    page = JSON.parse(body) as FredObservationsPage;
  } catch {
    throw new SourceFormatError(origin, undefined, 'response is not JSON');
  }
  if (!Array.isArray(page.observations)) throw new SourceFormatError(origin, undefined, 'response has no observations array');
  const count = typeof page.count === 'number' ? page.count : offset + page.observations.length;
  const observations: Observation[] = [];
  page.observations.forEach((item: unknown, index) => {
    const position = offset + index + 1;
    const record = (item ?? {}) as { date?: unknown; value?: unknown };
    if (typeof record.date !== 'string' || !isCalendarDate(record.date) || typeof record.value !== 'string') {
      throw new SourceFormatError(origin, position, `observation ${position} lacks a date (YYYY-MM-DD) or a string value`);
    }
    const value = parseValue(record.value, origin, position);
    if (value !== undefined) observations.push({ date: record.date, value });
  });
  return { count, received: page.observations.length, observations };
}

function sortAndCheck(observations: Observation[], origin: string): Observation[] {
  const sorted = [...observations].sort((a, b) => a.date.localeCompare(b.date));
  for (let index = 1; index < sorted.length; index += 1) {
    if (sorted[index]?.date === sorted[index - 1]?.date) {
      throw new SourceFormatError(origin, undefined, `date ${sorted[index]?.date} appears twice`);
    }
  }
  return sorted;
}
