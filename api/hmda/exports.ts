// Results too large for an answer, as files: every row of a query as Parquet and as CSV, written once
// per question and warehouse version (the file name is the sha256 of both, so asking again finds the
// same files), kept for HMDA_EXPORT_TTL_HOURS and then deleted. The engine streams the rows to disk
// (COPY … TO), so a result is never held whole in memory. `<id>.json` is written last: an export
// without it is unfinished and never served.
//
// Space is a hard cap, for the folder and for each key: a write is given a byte budget (what is left
// of the key's quota and of the folder, less what writes under way were given) and is stopped at it
// while it writes (sandbox.ts, file-size-limit.ts); its partial files are removed.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../platform/logger.ts';
import { BadRequestError, ServiceUnavailableError, TooManyRequestsError } from '../platform/errors.ts';
import { HMDA_EXPORT_TTL_HOURS } from './contract.ts';

export const EXPORT_FORMATS = { csv: 'text/csv; charset=utf-8', parquet: 'application/vnd.apache.parquet' } as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** Space the exports folder may use; past it, expired files go first, then new exports wait (503). */
export const EXPORTS_MAX_BYTES = 5 * 2 ** 30;
/** Space one key's exports may use together until they expire; past it, its new exports wait (429). */
export const EXPORTS_KEY_MAX_BYTES = 2 ** 30;

/** A write reached its byte budget and was stopped (by the sandbox, or found over it after a trusted write). */
export class ExportOverBudgetError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`export stopped at its budget of ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

const megabytes = (bytes: number) => `${Math.max(0.1, Math.round((bytes / 2 ** 20) * 10) / 10)} MB`;
/** An export found with less time than this left is written again, so a link handed out lives at least this long. */
const MIN_REMAINING_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;
/** Unfinished files of a write that died (a killed process) are removed after this long. */
const ORPHAN_AFTER_MS = 60 * 60_000;

export interface ExportRecord {
  id: string;
  rows: number;
  csvBytes: number;
  parquetBytes: number;
  createdAt: string;
  expiresAt: string;
  /** Id of the key whose question wrote it: its bytes count against that key's quota. */
  keyId?: string;
}

export interface ExportFiles {
  parquetPath: string;
  csvPath: string;
  /** Bytes both files together may take; the writer stops there (ExportOverBudgetError). */
  maxBytes: number;
}

export interface ExportStoreOptions {
  /** The folder, `$HMDA_DIR/exports` (the sandbox processes may write there). */
  dir: string;
  logger: Logger;
  clock?: () => Date;
  ttlMs?: number;
  maxBytes?: number;
  /** Space one key's live exports may take together (default EXPORTS_KEY_MAX_BYTES). */
  keyMaxBytes?: number;
}

/** The content address of a question: the same question on the same warehouse gives the same id. */
export function exportId(question: unknown, warehouseVersion: string): string {
  return createHash('sha256').update(JSON.stringify({ question, warehouseVersion })).digest('hex');
}

const FILE_NAME = /^([0-9a-f]{64})\.(csv|parquet)$/;

export function createExportStore(options: ExportStoreOptions) {
  const { dir, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const ttlMs = options.ttlMs ?? HMDA_EXPORT_TTL_HOURS * 3_600_000;
  const maxBytes = options.maxBytes ?? EXPORTS_MAX_BYTES;
  const keyMaxBytes = options.keyMaxBytes ?? EXPORTS_KEY_MAX_BYTES;
  const writing = new Map<string, Promise<ExportRecord>>();
  /** The budgets of the writes under way, by their token: reserved until each ends. */
  const budgets = new Map<string, { keyId: string; bytes: number }>();
  const recordPath = (id: string) => path.join(dir, `${id}.json`);
  const filePath = (id: string, format: ExportFormat) => path.join(dir, `${id}.${format}`);

  function readRecord(id: string): ExportRecord | undefined {
    try {
      return JSON.parse(fs.readFileSync(recordPath(id), 'utf8')) as ExportRecord;
    } catch {
      return undefined;
    }
  }

  const live = (record: ExportRecord | undefined, marginMs = 0): record is ExportRecord =>
    record !== undefined && Date.parse(record.expiresAt) - marginMs > clock().getTime();

  async function remove(id: string): Promise<void> {
    // The record first: without it the files are no longer served, whatever happens next.
    await fsp.rm(recordPath(id), { force: true });
    await Promise.all((Object.keys(EXPORT_FORMATS) as ExportFormat[]).map((format) => fsp.rm(filePath(id, format), { force: true })));
  }

  /** Deletes expired exports and the leftovers of writes that died; returns the bytes still used. */
  async function sweep(): Promise<number> {
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch {
      return 0;
    }
    let used = 0;
    for (const name of names) {
      const file = path.join(dir, name);
      const id = /^([0-9a-f]{64})\.json$/.exec(name)?.[1];
      if (id) {
        if (!live(readRecord(id)) && !writing.has(id)) {
          await remove(id);
          logger.info({ export: id }, 'HMDA export expired and deleted');
        }
        continue;
      }
      const stat = await fsp.stat(file).catch(() => undefined);
      if (!stat) continue;
      const owner = /^([0-9a-f]{64})\./.exec(name)?.[1];
      const served = owner !== undefined && FILE_NAME.test(name) && fs.existsSync(recordPath(owner));
      const stale = clock().getTime() - stat.mtimeMs > ORPHAN_AFTER_MS;
      if (!served && stale && !(owner !== undefined && writing.has(owner))) {
        await fsp.rm(file, { force: true });
        continue;
      }
      used += stat.size;
    }
    return used;
  }

  const timer = setInterval(
    () => void sweep().catch((error: unknown) => logger.warn({ err: error }, 'HMDA exports could not be swept')),
    SWEEP_EVERY_MS,
  );
  timer.unref();

  /** The live exports a key wrote: their bytes, and when the first of them expires. */
  async function keyUsage(keyId: string): Promise<{ bytes: number; firstExpiry: number | undefined }> {
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    let bytes = 0;
    let firstExpiry: number | undefined;
    for (const name of names) {
      const id = /^([0-9a-f]{64})\.json$/.exec(name)?.[1];
      const record = id === undefined ? undefined : readRecord(id);
      if (!live(record) || record.keyId !== keyId) continue;
      bytes += record.csvBytes + record.parquetBytes;
      firstExpiry = Math.min(firstExpiry ?? Infinity, Date.parse(record.expiresAt));
    }
    return { bytes, firstExpiry };
  }

  const reserved = (keyId?: string) =>
    [...budgets.values()].filter((budget) => keyId === undefined || budget.keyId === keyId).reduce((sum, budget) => sum + budget.bytes, 0);

  /** The bytes a new write of `keyId` may take, or the refusal when there are none. */
  async function budgetFor(keyId: string): Promise<{ bytes: number; limitedBy: 'space' | 'key' }> {
    const spaceLeft = maxBytes - (await sweep()) - reserved();
    const key = await keyUsage(keyId);
    const keyLeft = keyMaxBytes - key.bytes - reserved(keyId);
    if (spaceLeft <= 0) {
      throw new ServiceUnavailableError(
        'Large HMDA results are written to files, and the space set aside for them is full right now; try again in an hour, or narrow the query.',
        3600,
      );
    }
    if (keyLeft <= 0) {
      const waitSeconds = key.firstExpiry === undefined ? 60 : Math.max(1, Math.ceil((key.firstExpiry - clock().getTime()) / 1000));
      throw new TooManyRequestsError(
        `This key's large HMDA results already fill its ${megabytes(keyMaxBytes)} of export space; files are deleted ${Math.round(ttlMs / 3_600_000)} hours after they are written. Narrow the query, or retry in ${waitSeconds} s.`,
        waitSeconds,
      );
    }
    return spaceLeft < keyLeft ? { bytes: spaceLeft, limitedBy: 'space' } : { bytes: keyLeft, limitedBy: 'key' };
  }

  /** What the caller is told when a write reached its budget. */
  function overBudget(budget: { bytes: number; limitedBy: 'space' | 'key' }): Error {
    if (budget.limitedBy === 'space') {
      return new ServiceUnavailableError(
        'Large HMDA results are written to files, and the space set aside for them is full right now; try again in an hour, or narrow the query.',
        3600,
      );
    }
    if (budget.bytes >= keyMaxBytes) {
      return new BadRequestError(
        `Every row of this result takes more than the ${megabytes(keyMaxBytes)} an export may use; narrow the query (WHERE year = … AND state = …) or aggregate with GROUP BY.`,
      );
    }
    return new TooManyRequestsError(
      `Every row of this result takes more than the ${megabytes(budget.bytes)} left of this key's ${megabytes(keyMaxBytes)} export space; narrow the query, or retry once earlier exports expire (${Math.round(ttlMs / 3_600_000)} hours after they were written).`,
      3600,
    );
  }

  async function write(id: string, produce: (files: ExportFiles) => Promise<number>, keyId: string): Promise<ExportRecord> {
    await fsp.mkdir(dir, { recursive: true });
    const budget = await budgetFor(keyId);
    // Unique names while writing; the finished files are renamed into place, then the record.
    const token = randomUUID();
    const files = {
      parquetPath: path.join(dir, `${id}.${token}.parquet.tmp`),
      csvPath: path.join(dir, `${id}.${token}.csv.tmp`),
      maxBytes: budget.bytes,
    };
    budgets.set(token, { keyId, bytes: budget.bytes });
    try {
      const rows = await produce(files).catch((error: unknown) => {
        if (!(error instanceof ExportOverBudgetError)) throw error;
        logger.warn({ keyId, export: id, maxBytes: budget.bytes, limitedBy: budget.limitedBy }, 'HMDA export stopped at its byte budget');
        throw overBudget(budget);
      });
      const [parquet, csv] = await Promise.all([fsp.stat(files.parquetPath), fsp.stat(files.csvPath)]);
      // A writer that cannot be stopped mid-write (the service's own preset queries) is held to the budget after.
      if (parquet.size + csv.size > budget.bytes) throw overBudget(budget);
      await fsp.rename(files.parquetPath, filePath(id, 'parquet'));
      await fsp.rename(files.csvPath, filePath(id, 'csv'));
      const created = clock();
      const record: ExportRecord = {
        id,
        rows,
        csvBytes: csv.size,
        parquetBytes: parquet.size,
        createdAt: created.toISOString(),
        expiresAt: new Date(created.getTime() + ttlMs).toISOString(),
        keyId,
      };
      const temporary = `${recordPath(id)}.${token}.tmp`;
      await fsp.writeFile(temporary, JSON.stringify(record));
      await fsp.rename(temporary, recordPath(id));
      return record;
    } finally {
      budgets.delete(token);
      await Promise.all([fsp.rm(files.parquetPath, { force: true }), fsp.rm(files.csvPath, { force: true })]);
    }
  }

  return {
    dir,
    /**
     * The export `id`, written by `produce` within the byte budget of `keyId` unless a live one
     * exists. Concurrent asks for the same id share one write.
     */
    ensure(id: string, produce: (files: ExportFiles) => Promise<number>, keyId = 'none'): Promise<ExportRecord> {
      const existing = readRecord(id);
      if (live(existing, MIN_REMAINING_MS) && fs.existsSync(filePath(id, 'csv')) && fs.existsSync(filePath(id, 'parquet')))
        return Promise.resolve(existing);
      const pending = writing.get(id);
      if (pending) return pending;
      const started = write(id, produce, keyId).finally(() => writing.delete(id));
      writing.set(id, started);
      return started;
    },

    /** The file a download names (`<id>.csv` / `<id>.parquet`), while its export lives; undefined otherwise. */
    find(name: string): { path: string; format: ExportFormat; record: ExportRecord } | undefined {
      const match = FILE_NAME.exec(name);
      if (!match) return undefined;
      const [, id, format] = match as unknown as [string, string, ExportFormat];
      const record = readRecord(id);
      if (!live(record)) return undefined;
      const file = filePath(id, format);
      return fs.existsSync(file) ? { path: file, format, record } : undefined;
    },

    sweep,

    close(): void {
      clearInterval(timer);
    },
  };
}

export type ExportStore = ReturnType<typeof createExportStore>;
