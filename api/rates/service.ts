// The rates service behind GET /rates, the MCP tool get_mortgage_rates and /ask. Computed records
// are cached in memory between syncs, so the hot path does no database round trip; a sync is noticed
// through the `datasets` table (checked in the background at most every few seconds) or `invalidate()`.
import type { CoreDeps } from '../deps.ts';
import type { DatasetStatus } from '../platform/datasets.ts';
import { NotFoundError } from '../platform/http/errors.ts';
import { preSerialize, type PreSerialized } from '../platform/http/api-registry.ts';
import { parseOrThrow } from '../platform/http/validation.ts';
import { unloadedBenchmarks } from './choose.ts';
import { computeRates, type LenderObservation, type RatesResult } from './compute.ts';
import { SERIES, type SeriesId } from './series.ts';
import { isDetailedRecord, RatesQuerySchema, type DetailedRateRecord, type RateRecord, type RatesQuery, type RatesQueryInput } from './contract.ts';
import { requestKey, toRatesRequest, type RatesRequest } from './params.ts';
import { cellKey, readLenderHistory, readSnapshot, type Snapshot } from './snapshot.ts';
import { OPTIMAL_BLUE_DATASET, PMMS_DATASET } from './sync/national.ts';
import { RATE_CHECKER_DATASET } from './sync/rate-checker.ts';
import { RATE_SHEET_DATASET } from './sync/rate-sheet.ts';

/** Datasets without which no record can be made (503 until the first sync loads them). */
export const REQUIRED_DATASETS = [PMMS_DATASET, OPTIMAL_BLUE_DATASET];
const WATCHED_DATASETS = [...REQUIRED_DATASETS, RATE_CHECKER_DATASET, RATE_SHEET_DATASET];
/** How often a request may trigger a background check for a newer sync. */
const CHECK_INTERVAL_MS = 5_000;
/** Bound on cached records (every parameter combination × history dates would be unbounded). */
const MAX_CACHED = 20_000;

export interface RatesService {
  /** The record for parameters as a page or /ask has them (parsed with the contract's query schema) plus its sources. */
  getRates(params: RatesQueryInput): Promise<RatesResult>;
  /** The record for parsed parameters plus its sources. */
  answer(query: RatesQuery): Promise<RatesResult>;
  /** The detailed record (2.1) for parsed parameters: what get_mortgage_rates answers. */
  detailed(query: Omit<RatesQuery, 'format'>): Promise<DetailedRateRecord>;
  /** The serialised body for parsed query parameters: the REST hot path. */
  getRatesJson(query: RatesQuery): Promise<PreSerialized<RateRecord>>;
  /** Drops cached data; the next call reads the database again. Call after a rates sync. */
  invalidate(): void;
}

type Cached = { ok: true; result: RatesResult; json: PreSerialized<RateRecord> } | { ok: false; error: unknown };

export function createRatesService(core: CoreDeps, datasets: DatasetStatus): RatesService {
  // The same URL app.ts gives the API docs page (metadata.documentation, contract "Rates").
  const documentationUrl = `${core.config.baseUrl}/docs/api`;
  let snapshot: Snapshot | undefined;
  let loading: { generation: number; promise: Promise<Snapshot> } | undefined;
  let checkedAt = 0;
  let generation = 0;
  const cache = new Map<string, Cached>();
  /** Series already reported to the operator as missing (once per process: not on every 404). */
  const reportedMissing = new Set<SeriesId>();

  function reportMissing(request: RatesRequest, data: Snapshot): void {
    const ids = unloadedBenchmarks(request, data.series).filter((id) => !reportedMissing.has(id));
    if (ids.length === 0) return;
    for (const id of ids) reportedMissing.add(id);
    core.logger.warn(
      { series: ids, datasets: [...new Set(ids.map((id) => (SERIES[id].publisher === 'Freddie Mac' ? PMMS_DATASET : OPTIMAL_BLUE_DATASET)))] },
      'rates: a request asked for a cell only these unloaded series cover; run `npm run sync -- optimal_blue` (or pmms) with access to FRED, ' +
        'or put the FRED downloads in the mirror as rates/fred/<ID>.csv',
    );
  }

  async function datasetsVersion(): Promise<string> {
    const records = await datasets.list();
    const watched = records.filter((record) => WATCHED_DATASETS.includes(record.name));
    for (const name of REQUIRED_DATASETS) {
      if (!watched.some((record) => record.name === name)) await datasets.require(name); // throws the 503
    }
    return JSON.stringify(watched.map((record) => [record.name, record.loadedAt, record.checksum]));
  }

  function load(): Promise<Snapshot> {
    if (loading && loading.generation === generation) return loading.promise;
    const started = generation;
    const promise = (async () => {
      const version = await datasetsVersion();
      const fresh = await readSnapshot(core.db, version);
      // An invalidate() while reading means this read may predate the sync: do not install it.
      if (started === generation) {
        snapshot = fresh;
        cache.clear();
        checkedAt = Date.now();
      }
      return fresh;
    })().finally(() => {
      if (loading?.promise === promise) loading = undefined;
    });
    loading = { generation: started, promise };
    return promise;
  }

  /** Re-reads the data when a sync has published since the snapshot was taken. */
  async function refreshIfChanged(current: Snapshot): Promise<void> {
    const version = await datasetsVersion();
    if (version !== current.version && snapshot === current) await load();
  }

  async function currentSnapshot(): Promise<Snapshot> {
    const current = snapshot;
    if (!current) return load();
    if (Date.now() - checkedAt > CHECK_INTERVAL_MS) {
      checkedAt = Date.now();
      refreshIfChanged(current).catch((error: unknown) => core.logger.warn({ err: error }, 'rates: refresh check failed'));
    }
    return current;
  }

  async function lenderFor(request: RatesRequest, data: Snapshot): Promise<LenderObservation[]> {
    return request.date !== undefined && request.date < data.lenderWindowStart
      ? readLenderHistory(core.db, request, request.date)
      : (data.lender.get(cellKey(request)) ?? []);
  }

  async function compute(request: RatesRequest, data: Snapshot): Promise<Cached> {
    try {
      const lender = await lenderFor(request, data);
      const lender30yr = request.loanTerm === 30 ? lender : await lenderFor({ ...request, loanTerm: 30 }, data);
      const result = computeRates(request, { series: data.series, lender, lender30yr, latestDate: data.latestDate }, documentationUrl);
      return { ok: true, result, json: preSerialize(result.record) };
    } catch (error) {
      if (error instanceof NotFoundError) reportMissing(request, data);
      return { ok: false, error };
    }
  }

  async function cached(query: RatesQuery): Promise<Extract<Cached, { ok: true }>> {
    const data = await currentSnapshot();
    const request = toRatesRequest(query);
    const key = requestKey(request);
    let entry = cache.get(key);
    if (!entry) {
      entry = await compute(request, data);
      if (snapshot === data) {
        if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
        cache.set(key, entry);
      }
    }
    if (!entry.ok) throw entry.error;
    return entry;
  }

  return {
    async getRates(params) {
      const query = parseOrThrow(RatesQuerySchema, params, 'query');
      return (await cached(query)).result;
    },
    async answer(query) {
      return (await cached(query)).result;
    },
    async detailed(query) {
      const { record } = (await cached({ ...query, format: 'detailed' })).result;
      // A detailed request always yields record 2.1; the guard only tells the compiler.
      if (!isDetailedRecord(record)) throw new Error('rates: a detailed request produced a simple record');
      return record;
    },
    async getRatesJson(query) {
      return (await cached(query)).json;
    },
    invalidate() {
      generation += 1;
      snapshot = undefined;
      cache.clear();
      datasets.invalidate();
    },
  };
}
