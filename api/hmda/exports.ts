// Results too large for an answer, as files: every row of a query as Parquet and as CSV, written once
// per question and warehouse version (the file name is the sha256 of both, so asking again finds the
// same files), kept for HMDA_EXPORT_TTL_HOURS and then deleted. The engine streams the rows to disk
// (COPY … TO), so a result is never held whole in memory. `<id>.json` is written last: an export
// without it is unfinished and never served.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../platform/logger.ts';
import { ServiceUnavailableError } from '../platform/http/errors.ts';
import { HMDA_EXPORT_TTL_HOURS } from './contract.ts';

export const EXPORT_FORMATS = { csv: 'text/csv; charset=utf-8', parquet: 'application/vnd.apache.parquet' } as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** Space the exports folder may use; past it, expired files go first, then new exports wait (503). */
export const EXPORTS_MAX_BYTES = 5 * 2 ** 30;
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
}

export interface ExportFiles {
  parquetPath: string;
  csvPath: string;
}

export interface ExportStoreOptions {
  /** The folder, `$HMDA_DIR/exports` (the sandbox processes may write there). */
  dir: string;
  logger: Logger;
  clock?: () => Date;
  ttlMs?: number;
  maxBytes?: number;
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
  const writing = new Map<string, Promise<ExportRecord>>();
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

  const timer = setInterval(() => void sweep().catch((error: unknown) => logger.warn({ err: error }, 'HMDA exports could not be swept')), SWEEP_EVERY_MS);
  timer.unref();

  async function write(id: string, produce: (files: ExportFiles) => Promise<number>): Promise<ExportRecord> {
    await fsp.mkdir(dir, { recursive: true });
    if ((await sweep()) > maxBytes) {
      throw new ServiceUnavailableError('Large HMDA results are written to files, and the space set aside for them is full right now; try again in an hour, or narrow the query.', 3600);
    }
    // Unique names while writing; the finished files are renamed into place, then the record.
    const token = randomUUID();
    const files = { parquetPath: path.join(dir, `${id}.${token}.parquet.tmp`), csvPath: path.join(dir, `${id}.${token}.csv.tmp`) };
    try {
      const rows = await produce(files);
      const [parquet, csv] = await Promise.all([fsp.stat(files.parquetPath), fsp.stat(files.csvPath)]);
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
      };
      const temporary = `${recordPath(id)}.${token}.tmp`;
      await fsp.writeFile(temporary, JSON.stringify(record));
      await fsp.rename(temporary, recordPath(id));
      return record;
    } finally {
      await Promise.all([fsp.rm(files.parquetPath, { force: true }), fsp.rm(files.csvPath, { force: true })]);
    }
  }

  return {
    dir,
    /**
     * The export `id`, written by `produce` unless a live one exists. Concurrent asks for the same id
     * share one write.
     */
    ensure(id: string, produce: (files: ExportFiles) => Promise<number>): Promise<ExportRecord> {
      const existing = readRecord(id);
      if (live(existing, MIN_REMAINING_MS) && fs.existsSync(filePath(id, 'csv')) && fs.existsSync(filePath(id, 'parquet'))) return Promise.resolve(existing);
      const pending = writing.get(id);
      if (pending) return pending;
      const started = write(id, produce).finally(() => writing.delete(id));
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
