// Streams one FFIEC LAR CSV (snapshot, one-year, state or Data Browser file; plain or gzip) into
// typed Parquet partitioned by year and state. DuckDB's CSV reader does the streaming with the
// explicit column types of schema.ts, so a multi-gigabyte file never sits in memory.
import fs from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import { parse } from 'csv-parse';
import { SourceFormatError } from '../sync/errors.ts';
import { literal } from './duck.ts';
import { LAR_COLUMNS, LAR_NULL_STRINGS, larColumn, normaliseHeader } from './schema.ts';

/** Rows per Parquet row group in the warehouse. */
const ROW_GROUP_ROWS = 122_880;

export interface IngestOptions {
  csvPath: string;
  /** Folder receiving `year=Y/state=S/part_<uuid>.parquet`. */
  outDir: string;
  /** Activity year for files without an `activity_year` column (extracts). */
  year?: number;
  /** State for files without a `state_code` column. */
  state?: string;
  /** Refuse files that lack any of the 99 public LAR columns (true for official files). */
  requireAllColumns: boolean;
  /** Name used in error messages (the publisher URL or mirror path). */
  label?: string;
}

export interface IngestResult {
  rows: number;
  present: string[];
  missing: string[];
}

/** Reads the header record without reading the file: the parser stops after line 1. */
export async function readHeader(csvPath: string): Promise<string[]> {
  const raw = fs.createReadStream(csvPath, { highWaterMark: 64 * 1024 });
  const input = csvPath.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const records = input.pipe(parse({ to_line: 1, relax_column_count: true, relax_quotes: true }));
  try {
    for await (const record of records) return record as string[];
    return [];
  } finally {
    records.destroy();
    raw.destroy();
  }
}

/** The CSV's columns mapped to warehouse names; throws naming the file when the header is unusable. */
export function planColumns(header: string[], options: Pick<IngestOptions, 'requireAllColumns' | 'label' | 'csvPath'>) {
  const label = options.label ?? options.csvPath;
  const names = header.map(normaliseHeader);
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '') throw new SourceFormatError(label, 1, 'the header has an empty column name.');
    if (seen.has(name)) throw new SourceFormatError(label, 1, `the header names column ${name} twice.`);
    seen.add(name);
  }
  const present = LAR_COLUMNS.filter((entry) => seen.has(entry.name)).map((entry) => entry.name);
  const missing = LAR_COLUMNS.filter((entry) => !seen.has(entry.name)).map((entry) => entry.name);
  if (present.length === 0) {
    throw new SourceFormatError(label, 1, 'no public LAR column found in the header; is this an HMDA LAR CSV file?');
  }
  if (options.requireAllColumns && missing.length > 0) {
    throw new SourceFormatError(label, 1, `the header lacks ${missing.length} public LAR column(s): ${missing.slice(0, 8).join(', ')}.`);
  }
  // Columns we do not know are read as text and dropped.
  const readTypes = names.map((name) => [name, larColumn(name)?.type ?? 'VARCHAR'] as const);
  return { names, present, missing, readTypes };
}

/** SELECT list producing the 99 columns in schema order, plus the partition columns. */
function selectList(present: Set<string>, options: Pick<IngestOptions, 'year' | 'state'>): string {
  const columns = LAR_COLUMNS.map((entry) =>
    present.has(entry.name) ? `"${entry.name}"` : `CAST(NULL AS ${entry.type}) AS "${entry.name}"`,
  );
  const yearFallback = options.year === undefined ? 'NULL' : String(Math.trunc(options.year));
  const stateFallback = options.state === undefined ? "'NA'" : literal(options.state);
  const year = present.has('activity_year') ? `coalesce(activity_year, ${yearFallback})` : yearFallback;
  const state = present.has('state_code') ? `coalesce(state_code, ${stateFallback})` : stateFallback;
  return `${columns.join(', ')}, CAST(${year} AS INTEGER) AS year, CAST(${state} AS VARCHAR) AS state`;
}

export function readCsvExpression(csvPath: string, readTypes: readonly (readonly [string, string])[]): string {
  const columns = readTypes.map(([name, type]) => `${literal(name)}: ${literal(type)}`).join(', ');
  const nulls = LAR_NULL_STRINGS.map(literal).join(', ');
  return `read_csv(${literal(csvPath)}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', nullstr = [${nulls}], columns = {${columns}})`;
}

/** Converts DuckDB's CSV error into one naming the file and line. */
export function csvError(error: unknown, label: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  const line = /line:?\s*(\d+)/i.exec(message);
  const firstLine = message.split('\n').find((text) => text.trim() !== '') ?? message;
  return new SourceFormatError(label, line ? Number(line[1]) : undefined, firstLine.replace(/^[A-Za-z ]*Error:\s*/, ''));
}

export async function ingestCsv(connection: DuckDBConnection, options: IngestOptions): Promise<IngestResult> {
  const label = options.label ?? options.csvPath;
  const header = await readHeader(options.csvPath);
  const plan = planColumns(header, options);
  if (!plan.present.includes('activity_year') && options.year === undefined) {
    throw new SourceFormatError(label, 1, 'the file has no activity_year column; give the year it covers.');
  }
  const source = readCsvExpression(options.csvPath, plan.readTypes);
  const sql =
    `COPY (SELECT ${selectList(new Set(plan.present), options)} FROM ${source}) TO ${literal(options.outDir)} ` +
    `(FORMAT parquet, PARTITION_BY (year, state), OVERWRITE_OR_IGNORE true, FILENAME_PATTERN 'part_{uuid}', ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`;
  try {
    // A partition's rows are written out once they fill a row group, rather than at DuckDB's default
    // of 524,288 rows each: a national file holds ~54 partitions, and buffering that much of each
    // made the write about a fifth slower (bench "hmda", ingest) with the same files and row groups.
    await connection.run(`SET partitioned_write_flush_threshold = ${ROW_GROUP_ROWS}`);
    const result = await connection.run(sql);
    return { rows: Number(result.rowsChanged), present: plan.present, missing: plan.missing };
  } catch (error) {
    throw csvError(error, label);
  }
}
