// `npm run sync -- hmda --years 2022,2023 --states CO,TX` (or `--all` for every year): loads the FFIEC
// state-year LAR files and transmittal sheets into the Parquet warehouse. The warehouse is files,
// not tables: `tx` is unused and each state-year is published only after the aggregate gate passes.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { SourceUnavailableError, ValidationError } from '../sync/errors.ts';
import { listOption, yearsOption } from '../sync/runner.ts';
import { combineChecksums, mirrorLocation } from '../sync/source.ts';
import type { DatasetDefinition, SourceEntry, SyncContext } from '../sync/types.ts';
import { HMDA_STATES, HMDA_YEAR_SPAN, HMDA_YEARS } from './codes.ts';
import { openInstance } from './duck.ts';
import { REAL_SOURCE } from './service.ts';
import { parseStateAggregates, type StateAggregates } from './validate.ts';
import { layout, loadLar, loadLenders, partitionKey, readManifest, type LarFile } from './warehouse.ts';
import { firstZipEntry, isZip } from '../sync/zip.ts';
import { downloadToFile } from './download.ts';
import { lockWarehouse } from './warehouse-lock.ts';

/** Per state and year, the Data Browser API's CSV (the same 99 columns as the snapshot files). */
export function larEntry(year: number, state: string): SourceEntry {
  return {
    id: `hmda-lar-${year}-${state}`,
    publisherUrl: `https://ffiec.cfpb.gov/v2/data-browser-api/view/csv?states=${state}&years=${year}`,
    format: 'csv',
    mirrorPath: `hmda/lar/${year}/${year}_public_lar_${state}.csv`,
    year,
  };
}

/** The national files the same records come from, for those who download them by hand. */
export const nationalFiles = (year: number) => ({
  snapshot: `https://s3.amazonaws.com/cfpb-hmda-public/prod/snapshot-data/${year}/${year}_public_lar_csv.zip`,
  oneYear: `https://s3.amazonaws.com/cfpb-hmda-public/prod/one-year-data/${year}/${year}_public_lar_one_year_csv.zip`,
});

export const aggregatesEntry = (year: number): SourceEntry => ({
  id: `hmda-state-aggregates-${year}`,
  publisherUrl: `https://ffiec.cfpb.gov/${year}/state.json`,
  format: 'json',
  mirrorPath: `hmda/aggregates/by_state_${year}.json`,
  year,
});

export const transmittalEntry = (year: number): SourceEntry => ({
  id: `hmda-ts-${year}`,
  publisherUrl: `https://s3.amazonaws.com/cfpb-hmda-public/prod/snapshot-data/${year}/${year}_public_ts_csv.zip`,
  format: 'csv',
  mirrorPath: `hmda/institutions/${year}_ts_csv.csv`,
  year,
});

export interface HmdaSelection {
  years: number[];
  states: string[];
}

export function selection(options: Record<string, string | boolean>): HmdaSelection {
  const all = options.all === true || options.years === 'all';
  const years = all ? [...HMDA_YEARS] : yearsOption(options);
  if (!years) {
    throw new ValidationError(
      `Choose the HMDA years to load: \`npm run sync -- hmda --years 2023 [--states CO,TX]\`, or \`--all\` for ${HMDA_YEAR_SPAN}.`,
    );
  }
  const unknownYear = years.find((year) => !(HMDA_YEARS as readonly number[]).includes(year));
  if (unknownYear !== undefined)
    throw new ValidationError(`--years: ${unknownYear} is not an HMDA year this service loads (${HMDA_YEARS[0]}–${HMDA_YEARS.at(-1)}).`);
  const states = (listOption(options, 'states') ?? [...HMDA_STATES]).map((state) => state.toUpperCase());
  const unknownState = states.find((state) => !(HMDA_STATES as readonly string[]).includes(state));
  if (unknownState) throw new ValidationError(`--states: ${unknownState} is not one of ${HMDA_STATES.join(', ')}.`);
  return { years, states };
}

async function fileChecksum(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A local path DuckDB can stream. Mirror files are read in place and downloads stream to a staging
 * file (a state-year can be gigabytes; readSource would hold it in memory).
 */
async function acquire(
  entry: SourceEntry,
  context: SyncContext,
  stagingRoot: string,
): Promise<{ path: string; checksum: string; temporary: boolean }> {
  if (context.config.sourceDir !== undefined) {
    const location = mirrorLocation(context.config.sourceDir, entry);
    if (fs.existsSync(location)) return { path: location, checksum: await fileChecksum(location), temporary: false };
    for (const suffix of ['.gz']) {
      if (fs.existsSync(location + suffix))
        return { path: location + suffix, checksum: await fileChecksum(location + suffix), temporary: false };
    }
  } else {
    await fsp.mkdir(stagingRoot, { recursive: true });
    const target = path.join(stagingRoot, `download-${randomUUID()}.csv`);
    const downloaded = await downloadToFile(entry.publisherUrl, target);
    if (!downloaded) throw new SourceUnavailableError(`${entry.publisherUrl}: not found (HTTP 404) for source ${entry.id}.`);
    if (isZip(downloaded.head)) await fsp.writeFile(target, firstZipEntry(await fsp.readFile(target), entry.publisherUrl));
    if (downloaded.head[0] === 0x1f && downloaded.head[1] === 0x8b) {
      await fsp.rename(target, `${target}.gz`);
      return { path: `${target}.gz`, checksum: downloaded.checksum, temporary: true };
    }
    return { path: target, checksum: downloaded.checksum, temporary: true };
  }
  // Not in the mirror: readSource says which file is missing.
  const file = await context.readSource(entry);
  await fsp.mkdir(stagingRoot, { recursive: true });
  const gzip = file.bytes[0] === 0x1f && file.bytes[1] === 0x8b;
  const target = path.join(stagingRoot, `download-${randomUUID()}.csv${gzip ? '.gz' : ''}`);
  await fsp.writeFile(target, isZip(file.bytes) ? firstZipEntry(file.bytes, file.origin) : file.bytes);
  return { path: target, checksum: file.checksum, temporary: true };
}

export const hmdaDataset: DatasetDefinition = {
  name: 'hmda',
  description: 'FFIEC HMDA public loan/application register, by state and year, into the Parquet warehouse',
  syncByDefault: false,
  async load(_tx, context) {
    const { years, states } = selection(context.options);
    const root = context.config.hmdaDir;
    const { stagingRoot } = layout(root);
    const lock = lockWarehouse(root);
    if (!lock.acquired)
      throw new ValidationError(
        `Another process (pid ${lock.heldBy}) is loading HMDA into ${root}; wait for it to finish and run the sync again.`,
      );
    const opened = await (async () => {
      const instance = await openInstance({ threads: context.config.HMDA_THREADS, memoryLimit: context.config.HMDA_MEMORY_LIMIT });
      const connection = await instance.connect();
      await connection.run('SET preserve_insertion_order = false');
      return { instance, connection };
    })().catch((error: unknown) => {
      lock.release();
      throw error;
    });
    const { instance, connection } = opened;
    const checksums: { entry: SourceEntry; checksum: string }[] = [];
    const temporary: string[] = [];
    let changed = 0;
    try {
      const total = years.length * states.length;
      let done = 0;
      for (const year of years) {
        const aggregatesFile = await context.readSource(aggregatesEntry(year));
        const aggregates: StateAggregates = parseStateAggregates(aggregatesFile.bytes.toString('utf8'), aggregatesFile.origin);
        checksums.push({ entry: aggregatesFile.entry, checksum: aggregatesFile.checksum });

        const transmittal = await context.readOptionalSource(transmittalEntry(year));
        if (transmittal) {
          const csv = path.join(stagingRoot, `ts-${randomUUID()}.csv`);
          await fsp.mkdir(stagingRoot, { recursive: true });
          await fsp.writeFile(csv, isZip(transmittal.bytes) ? firstZipEntry(transmittal.bytes, transmittal.origin) : transmittal.bytes);
          temporary.push(csv);
          await loadLenders(
            connection,
            root,
            { csvPath: csv, year, sourceUrl: transmittal.entry.publisherUrl, checksum: transmittal.checksum },
            context.clock,
          );
          checksums.push({ entry: transmittal.entry, checksum: transmittal.checksum });
        } else {
          context.logger.warn({ year }, 'no HMDA transmittal sheet for this year: lender names come from other years');
        }

        const files: LarFile[] = [];
        for (const state of states) {
          const entry = larEntry(year, state);
          const source = await acquire(entry, context, stagingRoot);
          if (source.temporary) temporary.push(source.path);
          checksums.push({ entry, checksum: source.checksum });
          const previous = readManifest(root)?.partitions[partitionKey(year, state)];
          if (previous?.sourceChecksum === source.checksum) continue; // unchanged since the last load
          files.push({ csvPath: source.path, sourceUrl: entry.publisherUrl, checksum: source.checksum, expect: { year, state } });
        }
        if (files.length > 0) {
          const result = await loadLar(connection, {
            root,
            synthetic: false,
            files,
            aggregatesFor: (y) => (y === year ? aggregates : undefined),
            clock: context.clock,
          });
          changed += result.rows;
          context.logger.info({ year, partitions: result.published.length, rows: result.rows }, 'HMDA state-years published');
        }
        done += states.length;
        context.progress(done, total);
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
      await Promise.all(temporary.map((file) => fsp.rm(file, { force: true })));
      lock.release();
    }
    const manifest = readManifest(root);
    const partitions = Object.values(manifest?.partitions ?? {});
    return {
      asOf: `${Math.max(...partitions.map((p) => p.year))}-12-31`,
      sourceUrl: REAL_SOURCE.url,
      checksum: combineChecksums(checksums),
      rows: partitions.reduce((total, p) => total + p.rows, 0),
      changed,
      details: {
        years,
        states,
        partitions: partitions.length,
        warehouse: root,
        nationalFiles: Object.fromEntries(years.map((year) => [year, nationalFiles(year)])),
      },
    };
  },
};
