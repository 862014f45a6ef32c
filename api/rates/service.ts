// The rates service behind GET /rates, the MCP tool get_mortgage_rates and /ask. Computed records
// are cached in memory between syncs and for the day (freshness is judged against today), so the hot
// path does no database round trip; a sync is noticed through the `datasets` table (the shared
// dataset snapshot checks it in the background at most every few seconds) or `invalidate()`.
import type { Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/logger.ts';
import type { Clock } from '../platform/clock.ts';
import type { DatasetRecord, DatasetStatus } from '../platform/datasets.ts';
import { BoundedCache } from '../platform/bounded-cache.ts';
import { cacheCounter, isCacheOff } from '../platform/cache-meter.ts';
import { datasetSnapshot } from '../platform/dataset-snapshot.ts';
import { currentVersions, publicVersions, type DatasetVersions, type PinnedVersion } from '../platform/dataset-versions.ts';
import { NotFoundError } from '../platform/errors.ts';
import { preSerialize, type PreSerialized } from '../platform/pre-serialized.ts';
import { parseOrThrow } from '../platform/validation.ts';
import { unloadedBenchmarks } from './choose.ts';
import { answerableTerms } from './coverage.ts';
import { computeRates, type LenderObservation, type RatesResult } from './compute.ts';
import { benchmarkInfo, type BenchmarkId } from './benchmarks.ts';
import { APOR_DATASET } from './sync/apor.ts';
import { METHOD_PATH, STATE_ESTIMATE_DATASET } from './estimate/method.ts';
import {
  isDetailedRecord,
  RatesQuerySchema,
  type DetailedRateRecord,
  type LoanTerm,
  type ProductType,
  type RateRecord,
  type RatesQuery,
  type RatesQueryInput,
} from './contract.ts';
import { requestKey, toRatesRequest, type RatesRequest } from './params.ts';
import { cellKey, readLenderHistory, readSnapshot, snapshotFromArchives, type RatesArchive, type Snapshot } from './snapshot.ts';
import { rateDatasets } from './sync/datasets.ts';
import { OPTIMAL_BLUE_DATASET, PMMS_DATASET } from './sync/national.ts';
import { RATE_SHEET_DATASET } from './sync/rate-sheet.ts';
import { isoDay } from '../platform/dates.ts';

/** Datasets without which no record can be made (503 until the first sync loads them). */
export const REQUIRED_DATASETS = [PMMS_DATASET, OPTIMAL_BLUE_DATASET];
const OPTIONAL_DATASETS = [APOR_DATASET, STATE_ESTIMATE_DATASET, RATE_SHEET_DATASET];
const WATCHED_DATASETS = [...REQUIRED_DATASETS, ...OPTIONAL_DATASETS];
/** Bytes of cached records (every parameter combination × history dates would be unbounded). */
const MAX_CACHED_BYTES = 32 * 1024 * 1024;
/** Pinned (`as_of`) snapshots kept in memory: each holds every series of a few datasets' loads (counted, not sized). */
const MAX_PINNED_SNAPSHOTS = 3;
/** Bytes of pinned answers remembered across those snapshots. */
const MAX_PINNED_ANSWER_BYTES = 8 * 1024 * 1024;
/** How each rates dataset's load is archived, to read a current load that was recorded before archiving began. */
const ARCHIVE_OF = new Map(rateDatasets.map((definition) => [definition.name, definition.archive]));

export interface RatesService {
  /** The record for parameters as a page or /ask has them (parsed with the contract's query schema) plus its sources. */
  getRates(params: RatesQueryInput): Promise<RatesResult>;
  /** The record for parsed parameters plus its sources. */
  answer(query: RatesQuery): Promise<RatesResult>;
  /** The detailed record (2.1) for parsed parameters: what get_mortgage_rates answers. */
  detailed(query: Omit<RatesQuery, 'format'>): Promise<DetailedRateRecord>;
  /** The serialised body for parsed query parameters: the REST hot path. */
  getRatesJson(query: RatesQuery): Promise<PreSerialized<RateRecord>>;
  /** The loan terms this install can answer for a product (some loaded benchmark covers them), longest first. */
  terms(productType: ProductType): Promise<LoanTerm[]>;
  /** Drops cached data; the next call reads the database again. Call after a rates sync. */
  invalidate(): void;
}

type Cached = { ok: true; result: RatesResult; json: PreSerialized<RateRecord> } | { ok: false; error: unknown };

/** A record's JSON and its objects (about twice that); a remembered failure is small. */
const cachedBytes = (entry: Cached) => (entry.ok ? 3 * entry.json.length + 64 : 256);
const answerCacheOf = (maxBytes: number) =>
  new BoundedCache<Cached>({
    maxBytes,
    sizeOf: cachedBytes,
    counter: cacheCounter('rates-answers'),
    ...(isCacheOff('rates-answers') ? { ttlMs: 0 } : {}),
  });

/** The current data and the records computed from it on `day` (emptied when the day changes). */
interface CurrentCopy {
  data: Snapshot;
  day: string;
  answers: BoundedCache<Cached>;
}

/** Identifies the loads a snapshot was read under. */
const signatureOf = (records: readonly DatasetRecord[]) =>
  JSON.stringify(records.map((record) => [record.name, record.loadedAt, record.checksum]));

export function createRatesService({
  db,
  logger,
  clock,
  baseUrl,
  datasets,
  versions,
}: {
  db: Queryable;
  logger: Logger;
  clock: Clock;
  /** The site's address, for the links every record carries (the API docs, the estimate's method). */
  baseUrl: string;
  datasets: DatasetStatus;
  versions: DatasetVersions;
}): RatesService {
  // The same URL app.ts gives the API docs page (metadata.documentation, contract "Rates").
  const urls = { documentation: `${baseUrl}/docs/api`, method: `${baseUrl}${METHOD_PATH}` };
  const today = () => isoDay(clock());
  const current = datasetSnapshot<CurrentCopy>({
    datasets,
    names: REQUIRED_DATASETS,
    optional: OPTIONAL_DATASETS,
    logger,
    label: 'rates',
    read: async (records) => ({
      data: await readSnapshot(db, signatureOf(records), currentVersions(records, WATCHED_DATASETS)),
      day: '',
      answers: answerCacheOf(MAX_CACHED_BYTES),
    }),
  });
  /** Series already reported to the operator as missing (once per process: not on every 404). */
  const reportedMissing = new Set<BenchmarkId>();

  function reportMissing(request: RatesRequest, data: Snapshot): void {
    const ids = unloadedBenchmarks(request, data.series).filter((id) => !reportedMissing.has(id));
    if (ids.length === 0) return;
    for (const id of ids) reportedMissing.add(id);
    const datasetOf = (id: BenchmarkId) => {
      const publisher = benchmarkInfo(id).publisher;
      return publisher === 'Freddie Mac' ? PMMS_DATASET : publisher === 'FFIEC' ? APOR_DATASET : OPTIMAL_BLUE_DATASET;
    };
    logger.warn(
      { series: ids, datasets: [...new Set(ids.map(datasetOf))] },
      'rates: a request asked for a cell only these unloaded series cover. Sync those datasets with access to the publishers ' +
        '(without MDS_SOURCE_DIR), or, offline, save the files in the MDS_SOURCE_DIR folder (FRED downloads as rates/fred/<ID>.csv, ' +
        'the FFIEC APOR table as rates/apor/YieldTableFixed.txt) and sync from it',
    );
  }

  async function lenderFor(request: RatesRequest, data: Snapshot): Promise<LenderObservation[]> {
    // A pinned snapshot holds only its loads' window: older lender history is not part of what it served.
    if (data.pinned && request.date !== undefined && request.date < data.lenderWindowStart) return [];
    return request.date !== undefined && request.date < data.lenderWindowStart
      ? readLenderHistory(db, request, request.date)
      : (data.lender.get(cellKey(request)) ?? []);
  }

  async function compute(request: RatesRequest, data: Snapshot, day: string): Promise<Cached> {
    try {
      const lender = await lenderFor(request, data);
      const lender30yr = request.loanTerm === 30 ? lender : await lenderFor({ ...request, loanTerm: 30 }, data);
      const result = computeRates(
        request,
        {
          series: data.series,
          lender,
          lender30yr,
          estimates: data.estimates,
          latestDate: data.latestDate,
          today: day,
          versions: data.versions,
        },
        urls,
      );
      return { ok: true, result, json: preSerialize(result.record) };
    } catch (error) {
      if (error instanceof NotFoundError) reportMissing(request, data);
      return { ok: false, error };
    }
  }

  const pinnedSnapshots = new BoundedCache<Promise<Snapshot>>({ maxBytes: MAX_PINNED_SNAPSHOTS, sizeOf: () => 1 });
  const pinnedAnswers = answerCacheOf(MAX_PINNED_ANSWER_BYTES);

  /** The snapshot of the pinned loads, read from their archives and kept for a few version sets. */
  function pinnedSnapshot(pins: readonly PinnedVersion[]): Promise<Snapshot> {
    const key = pins.map((pin) => `${pin.dataset}@${pin.version}`).join(',');
    let entry = pinnedSnapshots.get(key);
    if (!entry) {
      entry = Promise.all(
        pins.map((pin) => versions.snapshot<RatesArchive>(pin, () => ARCHIVE_OF.get(pin.dataset)?.(db) as Promise<RatesArchive>)),
      ).then((archives) => ({ ...snapshotFromArchives(archives, key, publicVersions(pins)), pinned: true }));
      entry.catch(() => pinnedSnapshots.delete(key));
      pinnedSnapshots.set(key, entry);
    }
    return entry;
  }

  /** The record as this service served it at the end of `query.as_of` (the current one when nothing changed since). */
  async function pinned(query: RatesQuery & { as_of: string }): Promise<Extract<Cached, { ok: true }>> {
    const pins = await versions.pin({ required: REQUIRED_DATASETS, optional: OPTIONAL_DATASETS }, query.as_of);
    if (versions.allCurrent(pins)) return cached({ ...query, as_of: undefined });
    const data = await pinnedSnapshot(pins);
    // As served that day: freshness is judged against the end of it.
    const request = toRatesRequest(query, query.as_of);
    const key = `${data.version}|${requestKey(request)}`;
    let entry = pinnedAnswers.get(key);
    if (!entry) {
      entry = await compute(request, data, query.as_of);
      pinnedAnswers.set(key, entry);
    }
    if (!entry.ok) throw entry.error;
    return entry;
  }

  async function cached(query: RatesQuery): Promise<Extract<Cached, { ok: true }>> {
    if (query.as_of !== undefined) return pinned({ ...query, as_of: query.as_of });
    const copy = await current.get();
    const day = today();
    // At midnight UTC every figure ages a day: records computed on another day are dropped.
    if (day !== copy.day) {
      copy.answers.clear();
      copy.day = day;
    }
    const request = toRatesRequest(query, day);
    const key = requestKey(request);
    let entry = copy.answers.get(key);
    if (!entry) {
      entry = await compute(request, copy.data, day);
      copy.answers.set(key, entry);
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
      // A detailed request always yields the detailed record; the guard only tells the compiler.
      if (!isDetailedRecord(record)) throw new Error('rates: a detailed request produced a simple record');
      return record;
    },
    async getRatesJson(query) {
      return (await cached(query)).json;
    },
    async terms(productType) {
      const { data } = await current.get();
      return answerableTerms(productType, (series) => (data.series[series]?.dates.length ?? 0) > 0);
    },
    invalidate() {
      current.invalidate();
      datasets.invalidate();
    },
  };
}
