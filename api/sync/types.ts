// The contract between the sync runner and each dataset: a dataset says where its official files
// are and how to load them inside one transaction; the runner handles transactions, validation
// failures, records (`datasets` table), progress and the summary.
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/logger.ts';

/** One official file: where the publisher serves it and where a local mirror keeps it. */
export interface SourceEntry {
  /** Stable id, e.g. `fhfa-conforming-2025`. */
  id: string;
  /** The publisher's URL (what response metadata and /healthz cite). */
  publisherUrl: string;
  /** File format, e.g. `pipe-delimited`, `xlsx`, `csv`, `json`, `ics`, `xml`. */
  format: string;
  /** Path below MDS_SOURCE_DIR where an already-downloaded copy lives (air-gapped installs, tests). */
  mirrorPath: string;
  /** Year or period the file covers, when that is how the dataset is split. */
  year?: number;
  /**
   * The URL actually downloaded when it differs from `publisherUrl` (e.g. an API URL carrying a key).
   * Never logged or recorded: only `publisherUrl` is.
   */
  downloadUrl?: string;
}

export interface SourceFile {
  entry: SourceEntry;
  bytes: Buffer;
  /** Where the bytes came from: a local path (mirror) or the publisher URL. */
  origin: string;
  /** sha256 of the bytes, hex. */
  checksum: string;
}

export interface SyncContext {
  config: Config;
  logger: Logger;
  clock: Clock;
  /**
   * Reads a source from MDS_SOURCE_DIR when set, otherwise downloads it from the publisher.
   * Throws SourceUnavailableError naming the path or URL when it cannot be read.
   */
  readSource(entry: SourceEntry): Promise<SourceFile>;
  /**
   * Like readSource, but resolves to undefined when the file is absent (a year the mirror or the
   * publisher does not have). Other failures still throw.
   */
  readOptionalSource(entry: SourceEntry): Promise<SourceFile | undefined>;
  /** Reports progress for the progress bar. */
  progress(done: number, total: number): void;
  /** Extra command-line options for this dataset (e.g. `--years 2022,2023 --states CO,TX`). */
  options: Record<string, string | boolean>;
}

/** What a successful load reports; written to the `datasets` table in the same transaction. */
export interface DatasetLoadResult {
  /** YYYY-MM-DD: the date the data is current as of (latest observation, effective date…). */
  asOf: string;
  /** The publisher URL to cite (the main one when a dataset has several files). */
  sourceUrl: string;
  /** Combined checksum of the files read. */
  checksum: string;
  /** Rows now held for this dataset. */
  rows: number;
  /** Rows inserted or changed by this run (0 on an identical second sync). */
  changed: number;
  /** Anything else worth recording (files read, years covered, distribution sizes…). */
  details?: Record<string, unknown>;
}

export interface DatasetDefinition {
  /** Dataset name as /healthz lists it, e.g. `loan_limits_conforming`, `pmms`. */
  name: string;
  description: string;
  /** Datasets that must be loaded first (e.g. county geography before loan limits). */
  dependsOn?: string[];
  /** False for datasets not synced by a bare `npm run sync` (e.g. the large HMDA ingest). */
  syncByDefault?: boolean;
  /**
   * Loads the dataset inside `tx` (one transaction: all or nothing). Upsert on natural keys so a
   * second run changes nothing. Validate before returning (row counts, ranges, anchor values) and
   * throw `SourceFormatError` / `ValidationError` (./errors.ts) on bad input: the transaction rolls
   * back and the previous load stays served.
   */
  load(tx: Queryable, context: SyncContext): Promise<DatasetLoadResult>;
  /**
   * What the service answers from, as JSON, read inside the load's transaction after `load`: archived
   * with the load's version (./versions.ts) so answers can be pinned to a past day (`as_of`). Without
   * it the version is still recorded and named, but cannot be served again once replaced.
   */
  archive?(tx: Queryable): Promise<unknown>;
}
