// The warehouse on disk: `lar/year=Y/state=S/data.parquet`, `lenders/year=Y/data.parquet` and a
// manifest. Loads are staged in `.staging/`, validated, then published one file per state-year with
// an atomic rename, so a failed load leaves the previous partitions served.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ValidationError } from '../sync/errors.ts';
import { literal } from './duck.ts';
import { ingestCsv } from './ingest.ts';
import { assertMatchesAggregates, type PartitionCounts, type StateAggregates } from './validate.ts';

export interface PartitionRecord {
  year: number;
  state: string;
  rows: number;
  sourceUrl: string;
  sourceChecksum: string;
  loadedAt: string;
}

export interface LenderRecord {
  year: number;
  rows: number;
  sourceUrl: string;
  sourceChecksum: string;
  loadedAt: string;
}

export interface Manifest {
  /** True for a benchmark warehouse of generated rows; such a folder never holds real data. */
  synthetic: boolean;
  /**
   * True for a warehouse of extracts (slices of a state-year, e.g. one lender's rows): the aggregate
   * gate cannot apply to them, so they never share a folder with whole state-years, and every answer
   * from such a folder says it is partial. Absent in manifests written before the flag existed.
   */
  partial?: boolean;
  partitions: Record<string, PartitionRecord>;
  lenders: Record<string, LenderRecord>;
}

/** LEIs the synthetic generator writes; real filers never have them. */
export const SYNTHETIC_LEI_PREFIX = 'SYNTHETIC';

export interface WarehouseLayout {
  root: string;
  larDir: string;
  lendersDir: string;
  manifestPath: string;
  stagingRoot: string;
}

export function layout(root: string): WarehouseLayout {
  return {
    root,
    larDir: path.join(root, 'lar'),
    lendersDir: path.join(root, 'lenders'),
    manifestPath: path.join(root, 'manifest.json'),
    stagingRoot: path.join(root, '.staging'),
  };
}

export const partitionKey = (year: number, state: string) => `${year}/${state}`;
export const larGlob = (root: string) => path.join(layout(root).larDir, '*', '*', '*.parquet');
export const lendersGlob = (root: string) => path.join(layout(root).lendersDir, '*', '*.parquet');

export function readManifest(root: string): Manifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(layout(root).manifestPath, 'utf8')) as Manifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeManifest(root: string, manifest: Manifest): Promise<void> {
  const target = layout(root).manifestPath;
  const temporary = `${target}.${randomUUID()}.tmp`;
  await fsp.writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  await fsp.rename(temporary, target);
}

/** Creates the folder (and its manifest) if needed; refuses to mix synthetic and real data, or extracts and whole state-years. */
export async function openWarehouse(root: string, synthetic: boolean, partial = false): Promise<Manifest> {
  await fsp.mkdir(root, { recursive: true });
  const existing = readManifest(root);
  if (existing) {
    if (existing.synthetic !== synthetic) {
      throw new ValidationError(
        existing.synthetic
          ? `${root} holds SYNTHETIC benchmark data; load real HMDA files into a different HMDA_DIR.`
          : `${root} holds real HMDA data; synthetic rows must go to a separate folder.`,
      );
    }
    if ((existing.partial ?? false) !== partial) {
      throw new ValidationError(
        existing.partial
          ? `${root} holds extracts, not whole state-years; load whole state-years into a different HMDA_DIR.`
          : `${root} holds whole state-years checked against the official aggregates; load extracts into a separate folder.`,
      );
    }
    return existing;
  }
  const manifest: Manifest = { synthetic, ...(partial ? { partial } : {}), partitions: {}, lenders: {} };
  await writeManifest(root, manifest);
  return manifest;
}

export interface LarFile {
  csvPath: string;
  sourceUrl: string;
  checksum: string;
  year?: number;
  state?: string;
  /** When given, rows of any other year or state fail the load (a state file must hold only that state). */
  expect?: { year: number; state: string };
}

export interface LoadLarOptions {
  root: string;
  synthetic: boolean;
  files: LarFile[];
  aggregatesFor: (year: number) => StateAggregates | undefined;
  clock?: () => Date;
  /**
   * The files are extracts, not whole state-years (a slice of one lender's rows, a column subset): the
   * aggregate gate cannot apply, so they go into a warehouse marked partial, never beside whole ones.
   */
  partial?: boolean;
  /** Skip the aggregate gate for SYNTHETIC rows (benchmarks of scaled samples); refused for real rows. */
  skipValidation?: boolean;
}

/** Whether the files must pass the aggregate gate (and carry all 99 columns) before publication. */
const gated = (options: LoadLarOptions) => !options.partial && !options.skipValidation;

export interface LoadLarResult {
  published: PartitionRecord[];
  rows: number;
}

async function stagedCounts(connection: DuckDBConnection, stagedGlob: string): Promise<PartitionCounts[]> {
  const reader = await connection.runAndReadAll(
    `SELECT year, state, 'a' AS field, action_taken AS code, count(*) AS n FROM read_parquet(${literal(stagedGlob)}, hive_partitioning = true) GROUP BY ALL
     UNION ALL
     SELECT year, state, 'l', loan_type, count(*) FROM read_parquet(${literal(stagedGlob)}, hive_partitioning = true) GROUP BY ALL`,
  );
  const partitions = new Map<string, PartitionCounts>();
  for (const [year, state, field, code, count] of reader.getRowsJS()) {
    const key = partitionKey(Number(year), String(state));
    let entry = partitions.get(key);
    if (!entry) {
      entry = { year: Number(year), state: String(state), actionTaken: {}, loanType: {} };
      partitions.set(key, entry);
    }
    const target = field === 'a' ? entry.actionTaken : entry.loanType;
    target[code === null ? 'NA' : String(code)] = Number(count);
  }
  return [...partitions.values()].sort((a, b) => a.year - b.year || a.state.localeCompare(b.state));
}

async function checkSyntheticMarker(connection: DuckDBConnection, stagedGlob: string, synthetic: boolean): Promise<void> {
  const reader = await connection.runAndReadAll(
    `SELECT count(*) FILTER (WHERE starts_with(lei, '${SYNTHETIC_LEI_PREFIX}')), count(*) FROM read_parquet(${literal(stagedGlob)}, hive_partitioning = true)`,
  );
  const [markedRow] = reader.getRowsJS();
  const marked = Number(markedRow?.[0] ?? 0);
  const total = Number(markedRow?.[1] ?? 0);
  if (!synthetic && marked > 0) {
    throw new ValidationError(
      `${marked} of ${total} records carry the synthetic LEI prefix ${SYNTHETIC_LEI_PREFIX}: synthetic rows are never loaded into the real warehouse.`,
    );
  }
  if (synthetic && marked !== total) {
    throw new ValidationError(
      `Only synthetic rows (LEI prefix ${SYNTHETIC_LEI_PREFIX}) may be loaded into a synthetic warehouse; ${total - marked} are not.`,
    );
  }
}

/** Moves a staged partition into place as one file: rename(2) replaces the old file atomically. */
async function publishPartition(connection: DuckDBConnection, stagedLar: string, root: string, year: number, state: string): Promise<void> {
  const stagedDir = path.join(stagedLar, `year=${year}`, `state=${state}`);
  const files = (await fsp.readdir(stagedDir)).filter((name) => name.endsWith('.parquet')).sort();
  let single = path.join(stagedDir, files[0] ?? '');
  if (files.length !== 1) {
    single = path.join(stagedLar, `merged-${year}-${state}.parquet`);
    const list = files.map((name) => literal(path.join(stagedDir, name))).join(', ');
    await connection.run(`COPY (SELECT * FROM read_parquet([${list}])) TO ${literal(single)} (FORMAT parquet)`);
  }
  const targetDir = path.join(layout(root).larDir, `year=${year}`, `state=${state}`);
  await fsp.mkdir(targetDir, { recursive: true });
  await fsp.rename(single, path.join(targetDir, 'data.parquet'));
}

interface StagedPartition extends PartitionCounts {
  file: LarFile;
  stagedLar: string;
}

/** Ingests one file into its own staging folder and checks it holds what it should. */
async function stageFile(
  connection: DuckDBConnection,
  file: LarFile,
  stagedLar: string,
  options: LoadLarOptions,
): Promise<StagedPartition[]> {
  await ingestCsv(connection, {
    csvPath: file.csvPath,
    outDir: stagedLar,
    year: file.year,
    state: file.state,
    requireAllColumns: gated(options),
    label: file.sourceUrl,
  });
  if (!fs.existsSync(stagedLar)) throw new ValidationError(`${file.sourceUrl}: the file holds no records.`);
  const stagedGlob = path.join(stagedLar, '*', '*', '*.parquet');
  await checkSyntheticMarker(connection, stagedGlob, options.synthetic);
  const partitions = await stagedCounts(connection, stagedGlob);
  const expect = file.expect;
  const stray = expect && partitions.find((p) => p.year !== expect.year || p.state !== expect.state);
  if (expect && stray) {
    throw new ValidationError(
      `${file.sourceUrl} should hold ${expect.state} ${expect.year} records only, but has ${stray.state} ${stray.year} records.`,
    );
  }
  return partitions.map((partition) => ({ ...partition, file, stagedLar }));
}

/**
 * Ingests the files into staging, checks every state-year against the official aggregates and,
 * only when all pass, publishes them. On any failure nothing already served changes.
 */
export async function loadLar(connection: DuckDBConnection, options: LoadLarOptions): Promise<LoadLarResult> {
  if (options.skipValidation && !options.synthetic) {
    throw new ValidationError(
      'The aggregate gate is skipped only for synthetic rows; load an extract of real records with `partial`, into a folder of its own.',
    );
  }
  const manifest = await openWarehouse(options.root, options.synthetic, options.partial ?? false);
  const { stagingRoot } = layout(options.root);
  await fsp.mkdir(stagingRoot, { recursive: true });
  const stagingDir = await fsp.mkdtemp(path.join(stagingRoot, 'run-'));
  const clock = options.clock ?? (() => new Date());
  try {
    const staged: StagedPartition[] = [];
    for (const [index, file] of options.files.entries()) {
      for (const partition of await stageFile(connection, file, path.join(stagingDir, `file-${index}`), options)) {
        const twin = staged.find((p) => p.year === partition.year && p.state === partition.state);
        if (twin) {
          throw new ValidationError(
            `${partition.state} ${partition.year} records appear in both ${twin.file.sourceUrl} and ${file.sourceUrl}; give each state-year once.`,
          );
        }
        staged.push(partition);
      }
    }
    if (gated(options)) assertMatchesAggregates(staged, options.aggregatesFor);

    const published: PartitionRecord[] = [];
    const loadedAt = clock().toISOString();
    for (const partition of staged.sort((a, b) => a.year - b.year || a.state.localeCompare(b.state))) {
      await publishPartition(connection, partition.stagedLar, options.root, partition.year, partition.state);
      const record: PartitionRecord = {
        year: partition.year,
        state: partition.state,
        rows: Object.values(partition.actionTaken).reduce((a, b) => a + b, 0),
        sourceUrl: partition.file.sourceUrl,
        sourceChecksum: partition.file.checksum,
        loadedAt,
      };
      manifest.partitions[partitionKey(partition.year, partition.state)] = record;
      published.push(record);
    }
    await writeManifest(options.root, manifest);
    return { published, rows: published.reduce((total, p) => total + p.rows, 0) };
  } finally {
    await fsp.rm(stagingDir, { recursive: true, force: true });
  }
}

export interface LenderFile {
  csvPath: string;
  year: number;
  sourceUrl: string;
  checksum: string;
}

/** Loads a transmittal sheet (LEI → respondent name) for one year into `lenders/year=Y/data.parquet`. */
export async function loadLenders(
  connection: DuckDBConnection,
  root: string,
  file: LenderFile,
  clock: () => Date = () => new Date(),
): Promise<LenderRecord> {
  const existing = readManifest(root);
  const manifest = await openWarehouse(root, existing?.synthetic ?? false, existing?.partial ?? false);
  const { stagingRoot, lendersDir } = layout(root);
  await fsp.mkdir(stagingRoot, { recursive: true });
  const staged = path.join(stagingRoot, `lenders-${randomUUID()}.parquet`);
  try {
    await connection.run(
      `COPY (SELECT CAST(activity_year AS INTEGER) AS activity_year, CAST(lei AS VARCHAR) AS lei, CAST(respondent_name AS VARCHAR) AS respondent_name,
                    TRY_CAST(agency_code AS SMALLINT) AS agency_code, CAST(respondent_state AS VARCHAR) AS respondent_state,
                    CAST(respondent_city AS VARCHAR) AS respondent_city, TRY_CAST(lar_count AS BIGINT) AS lar_count
             FROM read_csv(${literal(file.csvPath)}, header = true, all_varchar = true, nullstr = ['NA', ''])
             WHERE lei IS NOT NULL ORDER BY lei) TO ${literal(staged)} (FORMAT parquet)`,
    );
    const reader = await connection.runAndReadAll(
      `SELECT count(*), count(DISTINCT activity_year), min(activity_year), count(*) FILTER (WHERE length(lei) <> 20) FROM read_parquet(${literal(staged)})`,
    );
    const [stats] = reader.getRowsJS();
    const rows = Number(stats?.[0] ?? 0);
    if (rows === 0) throw new ValidationError(`${file.sourceUrl}: the transmittal sheet lists no filers.`);
    if (Number(stats?.[1]) !== 1 || Number(stats?.[2]) !== file.year) {
      throw new ValidationError(`${file.sourceUrl}: expected filers for ${file.year} only, found activity year ${String(stats?.[2])}.`);
    }
    if (Number(stats?.[3]) > 0)
      throw new ValidationError(`${file.sourceUrl}: ${String(stats?.[3])} rows have an LEI that is not 20 characters long.`);
    const targetDir = path.join(lendersDir, `year=${file.year}`);
    await fsp.mkdir(targetDir, { recursive: true });
    await fsp.rename(staged, path.join(targetDir, 'data.parquet'));
    const record: LenderRecord = {
      year: file.year,
      rows,
      sourceUrl: file.sourceUrl,
      sourceChecksum: file.checksum,
      loadedAt: clock().toISOString(),
    };
    manifest.lenders[String(file.year)] = record;
    await writeManifest(root, manifest);
    return record;
  } finally {
    await fsp.rm(staged, { force: true });
  }
}
