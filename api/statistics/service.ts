// The statistics service behind GET /statistics, the MCP tool get_statistics and /ask: the catalogue
// is held in memory between syncs (a new `statistics` dataset record is noticed through the cached
// `datasets` list), so a request does no database round trip; 503 until the first precompute.
import type { Clock } from '../deps.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetStatus } from '../platform/datasets.ts';
import { NotFoundError } from '../platform/http/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { parseOrThrow } from '../platform/http/validation.ts';
import { STATISTICS_DATASET } from './dataset.ts';
import { featured } from './featured.ts';
import { StatisticsQuerySchema, type StatisticsQueryInput } from './params.ts';
import { toRecord, type StatRecord } from './types.ts';

export type StatisticsAnswer = { stat: StatRecord } | { stats: StatRecord[] };

export interface StatisticsService {
  /** Validates like the query string (400 naming the parameter), then answers per the contract. */
  get(params?: StatisticsQueryInput): Promise<StatisticsAnswer>;
  /** Every statistic (for listings and tools); 503 until computed. */
  list(): Promise<StatRecord[]>;
  /** Drops the in-memory catalogue; the next call reads the table again. */
  invalidate(): void;
}

interface Catalogue {
  version: string;
  stats: StatRecord[];
}

const LIST_HINT = 'List the ids with GET /statistics?all=true (add &category=... to narrow).';

export function createStatisticsService(deps: { db: Queryable; datasets: DatasetStatus; clock: Clock; logger?: Logger }): StatisticsService {
  let catalogue: Catalogue | undefined;
  let loading: Promise<Catalogue> | undefined;

  async function read(version: string): Promise<Catalogue> {
    const { rows } = await deps.db.query<Omit<StatRecord, 'as_of'> & { as_of: unknown }>(
      'SELECT id, category, value, label, headline, data_year, data_year_note, population, source_url, as_of FROM statistics ORDER BY category, id',
    );
    const stats = rows.map((row) =>
      toRecord({
        ...row,
        data_year: row.data_year === null ? null : Number(row.data_year),
        numeric_value: 0,
        as_of: row.as_of instanceof Date ? row.as_of.toISOString().slice(0, 10) : String(row.as_of).slice(0, 10),
      }),
    );
    return { version, stats };
  }

  async function current(): Promise<Catalogue> {
    const record = await deps.datasets.require(STATISTICS_DATASET); // 503 until the first precompute
    const version = `${record.loadedAt}|${record.checksum ?? ''}`;
    if (catalogue?.version === version) return catalogue;
    loading ??= read(version).finally(() => {
      loading = undefined;
    });
    const fresh = await loading;
    catalogue = fresh;
    return fresh;
  }

  return {
    async get(params = {}) {
      const query = parseOrThrow(StatisticsQuerySchema, params, 'query');
      const { stats } = await current();
      if (query.id !== undefined) {
        const stat = stats.find((candidate) => candidate.id === query.id);
        if (!stat) throw new NotFoundError(`No statistic with id "${query.id.slice(0, 100)}". ${LIST_HINT}`);
        if (query.category !== undefined && stat.category !== query.category) {
          throw new NotFoundError(`Statistic "${stat.id}" is in category ${stat.category}, not ${query.category}; drop 'category' or ${LIST_HINT.toLowerCase()}`);
        }
        if (query.year !== undefined && stat.data_year !== query.year) {
          const describes = stat.data_year === null ? 'does not state a year (its source does not)' : `describes ${stat.data_year}`;
          throw new NotFoundError(`Statistic "${stat.id}" ${describes}, not ${query.year}; drop 'year' to get it.`);
        }
        return query.all ? { stats: [stat] } : { stat };
      }
      const inCategory = query.category === undefined ? stats : stats.filter((stat) => stat.category === query.category);
      const pool = query.year === undefined ? inCategory : inCategory.filter((stat) => stat.data_year === query.year);
      if (pool.length === 0) {
        const years = [...new Set(inCategory.flatMap((stat) => (stat.data_year === null ? [] : [stat.data_year])))].sort((a, b) => a - b);
        const undated = inCategory.filter((stat) => stat.data_year === null).length;
        throw new NotFoundError(
          `No statistics${query.category ? ` in ${query.category}` : ''} describe ${query.year}. Years available: ${years.join(', ') || 'none'}` +
            `${undated > 0 ? `; ${undated} more state no year (their source does not) and are listed without 'year'` : ''}.`,
        );
      }
      if (query.all) return { stats: pool };
      const day = deps.clock().toISOString().slice(0, 10);
      return { stat: featured(pool, day, query.category) as StatRecord };
    },
    async list() {
      return (await current()).stats;
    },
    invalidate() {
      catalogue = undefined;
      deps.datasets.invalidate();
    },
  };
}
