// The HMDA service: preset queries and key holders' custom SQL over the Parquet warehouse, with the
// data's as-of and source on every answer; answers over the budget as exports of every row. The MCP
// tool query_hmda and the /hmda REST routes call `answer`; tests and benchmarks the parts.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { Config } from '../config.ts';
import { BadRequestError, NotFoundError, ServiceUnavailableError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { answerQuery, type AnswerMeta } from './answers.ts';
import { HMDA_ANSWER_BUDGET_BYTES, HMDA_TOTALS_POINTER, type HmdaAnswer, type HmdaQuery } from './contract.ts';
import { copyParquetToCsv, literal, openInstance, readerRows, type JsonRow } from './duck.ts';
import { createExportStore, type ExportFiles, type ExportStore } from './exports.ts';
import { echoFilters, parseFilters } from './filters.ts';
import { LoadProgress } from './load-progress.ts';
import { PRESETS, PRESET_NAMES, type PresetName } from './presets.ts';
import { createSandbox, type RunContext } from './sandbox.ts';
import type { TruncatedReason } from './sandbox-protocol.ts';
import { viewStatements } from './views.ts';
import { readManifest, type Manifest } from './warehouse.ts';
import { manifestVersion, PresetCache } from './preset-cache.ts';

/** Rows a custom query may return; more are cut and `truncated` is set. */
export const SQL_ROW_CAP = 10_000;
/** Bytes of JSON rows a custom query may return; more rows are cut and `truncated` is set. */
export const SQL_BYTE_CAP = 8 * 2 ** 20;

export const REAL_SOURCE = {
  name: 'FFIEC HMDA public loan/application register (CFPB)',
  url: 'https://ffiec.cfpb.gov/data-browser/',
};
export const PARTIAL_SOURCE = {
  name: 'FFIEC HMDA public loan/application register (CFPB): EXTRACTS of state-years, not whole geographies',
  url: 'https://ffiec.cfpb.gov/data-browser/',
};
export const SYNTHETIC_SOURCE = {
  name: 'SYNTHETIC loan records generated for benchmarks (calibrated to FFIEC state aggregates); not real loans',
  url: 'https://ffiec.cfpb.gov/data-browser/',
};

export type HmdaAnswerMeta = AnswerMeta;

export interface PresetResult extends HmdaAnswerMeta {
  preset: PresetName;
  filters: Record<string, string | number>;
  columns: string[];
  rows: JsonRow[];
  sql: string;
  params: (string | number)[];
}

export interface SqlResult extends HmdaAnswerMeta {
  columns: string[];
  rows: JsonRow[];
  sql: string;
  truncated: boolean;
  /** Why rows were cut: more than `row_cap` rows, or more than `byte_cap` bytes of JSON. */
  truncated_reason: TruncatedReason | null;
  row_cap: number;
  byte_cap: number;
}

export interface HmdaSummary {
  loaded: boolean;
  synthetic: boolean;
  partial: boolean;
  as_of: string | null;
  rows: number;
  years: number[];
  states: string[];
  partitions: { year: number; state: string; rows: number; source_url: string; loaded_at: string }[];
  lender_years: number[];
  source: string;
  source_url: string;
}

export interface HmdaService {
  /** One question as every face answers it: whole, or first rows plus an export over the budget. */
  answer(query: HmdaQuery, context?: RunContext): Promise<HmdaAnswer>;
  preset(name: string, filters?: unknown): Promise<PresetResult>;
  /**
   * Computes every preset for each loaded year with no other filter, then for all the years
   * together (no filter at all), so national answers are ready before anyone asks. Runs once per
   * warehouse version; later calls return at once.
   */
  warmNationalPresets(): Promise<void>;
  sql(query: unknown, context?: RunContext): Promise<SqlResult>;
  /** YYYY-MM-DD: the end of the latest activity year loaded; undefined while nothing is loaded. */
  asOf(): string | undefined;
  summary(): HmdaSummary;
  /** The exports of answers over the budget (downloads read them). */
  readonly exports: ExportStore;
  /** The background load's progress (api/hmda/first-load.ts writes it). */
  readonly progress: LoadProgress;
  close(): Promise<void>;
}

/**
 * A preset's export (our own query, on the trusted engine) runs without a row cap: it gets this
 * multiple of the query time limit, at least a minute. Custom SQL's exports get the query's own limit.
 */
const EXPORT_TIME_FACTOR = 6;
/**
 * A preset computed ahead is no caller's wait, and the all-years ones scan every record (about 121
 * million in the full register, 10–60 s on two cores): it gets this multiple of the query time
 * limit, at least ten minutes.
 */
const WARM_TIME_FACTOR = 60;

/** Where the warehouse is and what DuckDB may spend on it, plus the links answers carry. */
export interface HmdaSettings {
  /** The site's address (export download links). */
  baseUrl: string;
  /** The warehouse folder (HMDA_DIR). */
  dir: string;
  threads: number;
  memoryLimit: string;
  /** A query's time limit; exports and presets computed ahead get multiples of it. */
  queryTimeoutMs: number;
}

/** The HMDA service's settings, as the configuration names them. */
export function hmdaSettings(
  config: Pick<Config, 'baseUrl' | 'hmdaDir' | 'HMDA_THREADS' | 'HMDA_MEMORY_LIMIT' | 'HMDA_QUERY_TIMEOUT_MS'>,
): HmdaSettings {
  return {
    baseUrl: config.baseUrl,
    dir: config.hmdaDir,
    threads: config.HMDA_THREADS,
    memoryLimit: config.HMDA_MEMORY_LIMIT,
    queryTimeoutMs: config.HMDA_QUERY_TIMEOUT_MS,
  };
}

/** "2025 for 55 states" or "CA 2020, CO 2022": what a warehouse holds, short. */
function heldYears(partitions: { year: number; state: string }[]): string {
  const byYear = new Map<number, number>();
  for (const p of partitions) byYear.set(p.year, (byYear.get(p.year) ?? 0) + 1);
  if (partitions.length <= 6)
    return partitions
      .map((p) => `${p.state} ${p.year}`)
      .sort()
      .join(', ');
  return [...byYear.entries()]
    .sort(([a], [b]) => a - b)
    .map(([year, states]) => `${year} for ${states} state${states === 1 ? '' : 's'}`)
    .join(', ');
}

export function createHmdaService({
  logger,
  baseUrl,
  dir: root,
  threads,
  memoryLimit,
  queryTimeoutMs,
  keepAnswers = true,
  answerBudgetBytes = HMDA_ANSWER_BUDGET_BYTES,
  exportMaxBytes,
  exportKeyMaxBytes,
}: HmdaSettings & {
  logger: Logger;
  /** Keep preset answers until the warehouse changes (default). Off only to time the queries themselves. */
  keepAnswers?: boolean;
  /** Bytes an answer may take before it is exported (default HMDA_ANSWER_BUDGET_BYTES); smaller only in tests. */
  answerBudgetBytes?: number;
  /** Export space of the folder and of each key (defaults EXPORTS_MAX_BYTES, EXPORTS_KEY_MAX_BYTES); smaller only in tests. */
  exportMaxBytes?: number;
  exportKeyMaxBytes?: number;
}): HmdaService {
  const progress = new LoadProgress(root);
  const exports = createExportStore({
    dir: path.join(root, 'exports'),
    logger,
    maxBytes: exportMaxBytes,
    keyMaxBytes: exportKeyMaxBytes,
  });
  const sandbox = createSandbox({
    root,
    threads,
    memoryLimit,
    timeoutMs: queryTimeoutMs,
    rowCap: SQL_ROW_CAP,
    byteCap: SQL_BYTE_CAP,
    logger,
  });
  let trusted: Promise<DuckDBInstance> | undefined;
  let views: { signature: string; ready: Promise<void> } | undefined;

  function loadedManifest(): Manifest {
    const manifest = readManifest(root);
    if (!manifest || Object.keys(manifest.partitions).length === 0) {
      const note = progress.publicNote();
      throw new ServiceUnavailableError(
        `HMDA loan records are not loaded on this server yet.${note ? ` ${note}` : ''} ${HMDA_TOTALS_POINTER}`,
        300,
      );
    }
    return manifest;
  }

  function meta(manifest: Manifest): HmdaAnswerMeta {
    const source = manifest.synthetic ? SYNTHETIC_SOURCE : manifest.partial ? PARTIAL_SOURCE : REAL_SOURCE;
    const years = Object.values(manifest.partitions).map((p) => p.year);
    return {
      as_of: `${Math.max(...years)}-12-31`,
      source: source.name,
      source_url: source.url,
      synthetic: manifest.synthetic,
      partial: manifest.partial ?? false,
      warehouse_version: createHash('sha256').update(manifestVersion(manifest)).digest('hex').slice(0, 12),
    };
  }

  async function connection() {
    trusted ??= openInstance({ threads, memoryLimit });
    const db = await trusted;
    const connected = await db.connect();
    const statements = viewStatements(root);
    const signature = statements.join('\n');
    // One creation of the views for all callers: two connections creating them at once conflict in
    // DuckDB's catalog ("write-write conflict"), and the loser's query fails.
    if (views?.signature !== signature) {
      const ready = (async () => {
        for (const statement of statements) await connected.run(statement);
      })();
      views = { signature, ready };
      ready.catch(() => {
        if (views?.ready === ready) views = undefined; // the next caller tries again
      });
    }
    await views.ready;
    return connected;
  }

  const answers = new PresetCache<PresetResult>();
  let warmedVersion = '';
  let warming: Promise<void> | undefined;
  /** Set by the first warm-up: from then on every publish the service notices starts another. */
  let keepWarm = false;
  let closing = false;

  /** The manifest, with the answer cache emptied and a national warm-up started when it changed. */
  function currentManifest(): { manifest: Manifest; version: string } {
    const manifest = loadedManifest();
    const version = manifestVersion(manifest);
    if (answers.switchTo(version) && keepWarm) void service.warmNationalPresets();
    return { manifest, version };
  }

  async function runPreset(
    name: PresetName,
    filters: ReturnType<typeof parseFilters>,
    manifest: Manifest,
    timeoutMs: number,
  ): Promise<PresetResult> {
    const built = PRESETS[name](filters);
    const connected = await connection();
    const timer = setTimeout(() => connected.interrupt(), timeoutMs);
    try {
      const reader = await connected.runAndReadAll(built.sql, built.params);
      const rows = readerRows(reader).map((row) => Object.freeze(row));
      // Frozen: the same answer object is handed to every caller until the next publish.
      return Object.freeze({
        preset: name,
        filters: echoFilters(filters),
        columns: reader.deduplicatedColumnNames(),
        rows: Object.freeze(rows) as JsonRow[],
        sql: built.sql,
        params: built.params,
        ...meta(manifest),
      });
    } catch (error) {
      logger.error({ err: error, preset: name }, 'HMDA preset failed');
      throw error;
    } finally {
      clearTimeout(timer);
      connected.closeSync();
    }
  }

  /** Every row of a preset, streamed by the trusted engine into the two export files. */
  async function exportPreset(name: PresetName, input: Record<string, unknown>, files: ExportFiles): Promise<number> {
    const built = PRESETS[name](parseFilters(input));
    const connected = await connection();
    const timer = setTimeout(() => connected.interrupt(), exportTimeoutMs);
    try {
      const written = await connected.run(`COPY (\n${built.sql}\n) TO ${literal(files.parquetPath)} (FORMAT parquet)`, built.params);
      await copyParquetToCsv(connected, files.parquetPath, files.csvPath);
      return Number(written.rowsChanged);
    } finally {
      clearTimeout(timer);
      connected.closeSync();
    }
  }

  const exportTimeoutMs = Math.max(60_000, EXPORT_TIME_FACTOR * queryTimeoutMs);
  const warmTimeoutMs = Math.max(600_000, WARM_TIME_FACTOR * queryTimeoutMs);

  /** A preset's answer, kept or computed (and kept) within `timeoutMs`. */
  async function presetAnswer(name: string, input: unknown, timeoutMs: number): Promise<PresetResult> {
    if (!(PRESET_NAMES as readonly string[]).includes(name)) {
      throw new BadRequestError(`Unknown HMDA preset ${JSON.stringify(name)}; use one of ${PRESET_NAMES.join(', ')}.`);
    }
    const filters = parseFilters(input);
    const { manifest, version } = currentManifest();
    const key = `${name}|${JSON.stringify(echoFilters(filters))}`;
    const kept = keepAnswers ? answers.get(key) : undefined;
    if (kept) return kept;
    const partitions = Object.values(manifest.partitions);
    if (
      !partitions.some(
        (p) => (filters.year === undefined || p.year === filters.year) && (filters.state === undefined || p.state === filters.state),
      )
    ) {
      const note = progress.publicNote();
      throw new NotFoundError(
        `No HMDA loan records for ${[filters.state, filters.year].filter(Boolean).join(' ')} are loaded on this server; it holds ${heldYears(partitions)}.${note ? ` ${note}` : ''}`,
      );
    }
    const answer = await runPreset(name as PresetName, filters, manifest, timeoutMs);
    if (keepAnswers) answers.set(version, key, answer);
    return answer;
  }

  const service: HmdaService = {
    exports,
    progress,

    answer(query, context) {
      return answerQuery(
        {
          current: () => meta(currentManifest().manifest),
          preset: (name, filters) => service.preset(name, filters),
          exportPreset,
          sandbox,
          exports,
          downloadBase: `${baseUrl}/api/v1/hmda/exports`,
          rowCap: SQL_ROW_CAP,
          budgetBytes: answerBudgetBytes,
        },
        query,
        context,
      );
    },

    preset(name, input) {
      return presetAnswer(name, input, queryTimeoutMs);
    },

    warmNationalPresets() {
      keepWarm = true;
      warming ??= (async () => {
        try {
          // Again while a publish landed during the work, until the answers match the files.
          for (;;) {
            // During the background load every state published would start another national
            // scan; the load's end starts one (job.ts), and requests meanwhile compute on demand.
            if (progress.get().state === 'loading') return;
            const manifest = readManifest(root);
            if (!manifest || Object.keys(manifest.partitions).length === 0) return;
            const version = manifestVersion(manifest);
            if (version === warmedVersion) return;
            // Switched here, not by the first preset below: that would start a second warm-up
            // (`warming` is not set until this function first awaits).
            answers.switchTo(version);
            const years = [...new Set(Object.values(manifest.partitions).map((p) => p.year))].sort();
            const started = performance.now();
            // Each year first (the most asked), then all the years together: a scan of every
            // record, which on request would outlast the query time limit at the full register.
            // One that fails (memory, the time limit) runs on request; the others are still computed.
            const failed: string[] = [];
            for (const filters of [...years.map((year) => ({ year })), {}]) {
              for (const name of PRESET_NAMES) {
                if (closing) return;
                try {
                  await presetAnswer(name, filters, warmTimeoutMs);
                } catch (error) {
                  failed.push(`${name} ${'year' in filters ? filters.year : 'all years'}`);
                  logger.warn(
                    { err: error, preset: name, filters },
                    'HMDA national preset could not be computed ahead; it runs on request',
                  );
                }
              }
            }
            logger.info(
              { years, presets: PRESET_NAMES.length, allYears: true, failed, ms: Math.round(performance.now() - started) },
              'HMDA national presets computed',
            );
            // Not marked warm while one failed: the next call (a publish, the load's end) tries it again.
            if (failed.length > 0) return;
            warmedVersion = version;
          }
        } catch (error) {
          logger.warn({ err: error }, 'HMDA national presets could not be computed ahead; they run on request');
        } finally {
          warming = undefined;
        }
      })();
      return warming;
    },

    async sql(query, context) {
      const manifest = loadedManifest();
      const result = await sandbox.run(query, context);
      return {
        columns: result.columns,
        rows: result.rows,
        sql: String(query),
        truncated: result.truncated,
        truncated_reason: result.truncatedReason,
        row_cap: SQL_ROW_CAP,
        byte_cap: SQL_BYTE_CAP,
        ...meta(manifest),
      };
    },

    asOf() {
      const manifest = readManifest(root);
      if (!manifest || Object.keys(manifest.partitions).length === 0) return undefined;
      return meta(manifest).as_of;
    },

    summary() {
      const manifest = readManifest(root);
      const partitions = Object.values(manifest?.partitions ?? {}).sort((a, b) => a.year - b.year || a.state.localeCompare(b.state));
      const synthetic = manifest?.synthetic ?? false;
      const source = synthetic ? SYNTHETIC_SOURCE : manifest?.partial ? PARTIAL_SOURCE : REAL_SOURCE;
      return {
        loaded: partitions.length > 0,
        synthetic,
        partial: manifest?.partial ?? false,
        as_of: partitions.length > 0 && manifest ? meta(manifest).as_of : null,
        rows: partitions.reduce((total, p) => total + p.rows, 0),
        years: [...new Set(partitions.map((p) => p.year))],
        states: [...new Set(partitions.map((p) => p.state))].sort(),
        partitions: partitions.map((p) => ({ year: p.year, state: p.state, rows: p.rows, source_url: p.sourceUrl, loaded_at: p.loadedAt })),
        lender_years: Object.values(manifest?.lenders ?? {})
          .map((l) => l.year)
          .sort(),
        source: source.name,
        source_url: source.url,
      };
    },

    async close() {
      // A warm-up stops after its current query; the instance must outlive that query.
      closing = true;
      await warming;
      sandbox.close();
      exports.close();
      const pending = trusted;
      trusted = undefined;
      views = undefined;
      if (pending) (await pending).closeSync();
    },
  };
  return service;
}
