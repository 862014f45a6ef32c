// The statistics service behind GET /statistics, the MCP tool get_statistics and /ask. The catalogue
// is held in memory between syncs (a new `statistics` dataset record is noticed through the cached
// `datasets` list), and each answer is remembered, serialised, per normalised request until the
// catalogue changes, so a request does no database round trip and no serialisation; 503 until the
// first precompute.
import type { Clock } from '../platform/clock.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetStatus } from '../platform/datasets.ts';
import { currentVersion, publicVersions, type DatasetVersions } from '../platform/dataset-versions.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import type { PreSerialized } from '../platform/pre-serialized.ts';
import { NotFoundError } from '../platform/errors.ts';
import { answerCache, BoundedCache, rememberAnswer, type RememberedAnswer } from '../platform/bounded-cache.ts';
import type { Source } from '../platform/contract/sources.ts';
import { STATISTICS_DATASET } from './dataset.ts';
import { featured } from './featured.ts';
import type { StatisticsAnswer, StatisticsQuery, StatRecord } from './contract.ts';
import { toRecord } from './types.ts';
import { archiveStatistics, readRows, type StatisticsArchive, type StatRow } from './archive.ts';
import { isoDay } from '../platform/dates.ts';

export interface StatisticsService {
  /** The answer to a request parsed with the contract's StatisticsQuerySchema (every face parses first). */
  answer(query?: StatisticsQuery): Promise<StatisticsAnswer>;
  /** The same answer as JSON, serialised once per distinct request while the catalogue stands. */
  answerJson(query?: StatisticsQuery): Promise<PreSerialized<StatisticsAnswer>>;
  /** Every statistic (for listings and tools); 503 until computed. */
  list(): Promise<StatRecord[]>;
  /** Drops the in-memory catalogue and answers; the next call reads the table again. */
  invalidate(): void;
}

interface Catalogue {
  version: string;
  /** The dataset version it was read from, as answers name it. */
  versions: DatasetVersion[];
  stats: StatRecord[];
  byId: Map<string, StatRecord>;
  /** Answers to the requests asked since this catalogue was read. */
  answers: BoundedCache<RememberedAnswer<StatisticsAnswer>>;
}

/** Answers remembered per catalogue: categories × years × all, and every id, fit easily. */
const MAX_REMEMBERED_BYTES = 8 * 1024 * 1024;
/** Pinned (`as_of`) catalogues kept in memory (a catalogue is a few dozen records: counted, not sized). */
const MAX_PINNED_CATALOGUES = 4;

function catalogueOf(version: string, versions: DatasetVersion[], rows: readonly StatRow[]): Catalogue {
  const stats = rows
    // A catalogue archived before every statistic had to state its year may hold undated rows
    // (from the retired HMDA loan sample); an `as_of` answer leaves them out, as today's does.
    .filter((row) => row.data_year !== null)
    .map((row) => toRecord({ ...row, data_year: Number(row.data_year), numeric_value: 0, as_of: String(row.as_of).slice(0, 10) }));
  return {
    version,
    versions,
    stats,
    byId: new Map(stats.map((stat) => [stat.id, stat])),
    answers: answerCache<StatisticsAnswer>({ maxBytes: MAX_REMEMBERED_BYTES }),
  };
}

const LIST_HINT = 'List the ids with GET /statistics?all=true (add &category=... to narrow).';

/** Each source once, with the as-of date of the first statistic drawn from it. */
function sourcesOf(stats: readonly StatRecord[]): Source[] {
  const byUrl = new Map<string, Source>();
  for (const stat of stats) if (!byUrl.has(stat.source_url)) byUrl.set(stat.source_url, { url: stat.source_url, as_of: stat.as_of });
  return [...byUrl.values()];
}

export function createStatisticsService({
  db,
  datasets,
  versions,
  clock,
}: {
  db: Queryable;
  datasets: DatasetStatus;
  versions: DatasetVersions;
  clock: Clock;
}): StatisticsService {
  let catalogue: Catalogue | undefined;
  let loading: Promise<Catalogue> | undefined;

  async function current(): Promise<Catalogue> {
    const record = await datasets.require(STATISTICS_DATASET); // 503 until the first precompute
    const version = `${record.loadedAt}|${record.checksum ?? ''}`;
    if (catalogue?.version === version) return catalogue;
    loading ??= readRows(db)
      .then((rows) => catalogueOf(version, [currentVersion(record)], rows))
      .finally(() => {
        loading = undefined;
      });
    const fresh = await loading;
    catalogue = fresh;
    return fresh;
  }

  /** The answer per the contract; throws the 404s (they are not remembered). */
  function compute(catalogue: Catalogue, query: StatisticsQuery, day: string): StatisticsAnswer {
    return { ...select(catalogue, query, day), dataset_versions: catalogue.versions };
  }

  /** The statistics an answer holds and their sources; throws the 404s (they are not remembered). */
  function select({ stats, byId }: Catalogue, query: StatisticsQuery, day: string): Omit<StatisticsAnswer, 'dataset_versions'> {
    if (query.id !== undefined) {
      const stat = byId.get(query.id);
      if (!stat) throw new NotFoundError(`No statistic with id "${query.id.slice(0, 100)}". ${LIST_HINT}`);
      if (query.category !== undefined && stat.category !== query.category) {
        throw new NotFoundError(
          `Statistic "${stat.id}" is in category ${stat.category}, not ${query.category}; drop 'category' or ${LIST_HINT.toLowerCase()}`,
        );
      }
      if (query.year !== undefined && stat.data_year !== query.year) {
        throw new NotFoundError(`Statistic "${stat.id}" describes ${stat.data_year}, not ${query.year}; drop 'year' to get it.`);
      }
      return query.all ? { stats: [stat], sources: sourcesOf([stat]) } : { stat, sources: sourcesOf([stat]) };
    }
    const inCategory = query.category === undefined ? stats : stats.filter((stat) => stat.category === query.category);
    const pool = query.year === undefined ? inCategory : inCategory.filter((stat) => stat.data_year === query.year);
    if (pool.length === 0) {
      const years = [...new Set(inCategory.map((stat) => stat.data_year))].sort((a, b) => a - b);
      throw new NotFoundError(
        `No statistics${query.category ? ` in ${query.category}` : ''} describe ${query.year}. Years available: ${years.join(', ') || 'none'}.`,
      );
    }
    if (query.all) return { stats: pool, sources: sourcesOf(pool) };
    const stat = featured(pool, day, query.category) as StatRecord;
    return { stat, sources: sourcesOf([stat]) };
  }

  const pinnedCatalogues = new BoundedCache<Promise<Catalogue>>({ maxBytes: MAX_PINNED_CATALOGUES, sizeOf: () => 1 });

  /** The catalogue as served at the end of `day` (the current one when it has not changed since). */
  async function catalogueAt(day: string): Promise<Catalogue> {
    const [pin] = await versions.pin({ required: [STATISTICS_DATASET] }, day);
    if (!pin || pin.current) return current();
    let entry = pinnedCatalogues.get(pin.version);
    if (!entry) {
      entry = versions
        .snapshot<StatisticsArchive>(pin, () => archiveStatistics(db))
        .then((archive) => catalogueOf(pin.version, publicVersions([pin]), archive.rows));
      const key = pin.version;
      entry.catch(() => pinnedCatalogues.delete(key));
      pinnedCatalogues.set(key, entry);
    }
    return entry;
  }

  async function remembered(query: StatisticsQuery): Promise<RememberedAnswer<StatisticsAnswer>> {
    const found = query.as_of === undefined ? await current() : await catalogueAt(query.as_of);
    // The featured statistic changes with the UTC day (the asked day for `as_of`); every other answer only with the catalogue.
    const day = query.id === undefined && !query.all ? (query.as_of ?? isoDay(clock())) : '';
    const key = `${query.category ?? ''}|${query.id ?? ''}|${query.year ?? ''}|${query.all ? 'all' : ''}|${day}`;
    return found.answers.get(key) ?? rememberAnswer(found.answers, key, compute(found, query, day));
  }

  return {
    async answer(query = {}) {
      return (await remembered(query)).answer;
    },
    async answerJson(query = {}) {
      return (await remembered(query)).json;
    },
    async list() {
      return (await current()).stats;
    },
    invalidate() {
      catalogue = undefined;
      datasets.invalidate();
    },
  };
}
