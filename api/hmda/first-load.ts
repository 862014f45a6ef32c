// HMDA from the first start: the latest activity year, every state, loaded in the background while
// the service serves. Each state-year is its own load (streamed to Parquet, checked against the
// official FFIEC state aggregates, published by atomic rename), so answers start with the first
// state, a restart resumes with the states not yet published, and a state whose counts differ from
// the aggregates is not published (the others are). Progress goes to the log and to /healthz.
// With MDS_SOURCE_DIR, the mirror's `hmda/lar/YYYY/YYYY_public_lar_XX.csv` files are loaded; a
// mirror without them is skipped with one log line, never an error.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Logger } from '../platform/logger.ts';
import { HMDA_STATES, HMDA_YEARS } from './codes.ts';
import { downloadToFile } from './download.ts';
import { openInstance } from './duck.ts';
import type { HmdaLoadStatus, LoadProgress } from './load-progress.ts';
import { aggregatesEntry, larEntry, transmittalEntry } from './sync.ts';
import { parseStateAggregates, type StateAggregates } from './validate.ts';
import { layout, loadLar, loadLenders, partitionKey, readManifest } from './warehouse.ts';
import { lockWarehouse } from './warehouse-lock.ts';
import { firstZipEntry, isZip } from '../sync/zip.ts';

export interface FirstLoadOptions {
  config: Pick<Config, 'hmdaDir' | 'sourceDir' | 'HMDA_THREADS' | 'HMDA_MEMORY_LIMIT'>;
  logger: Logger;
  progress: LoadProgress;
  clock?: () => Date;
  /** Stops before the next state (shutdown); the published ones stay, the rest load at the next start. */
  signal?: AbortSignal;
  /** How files are downloaded (tests point it at a local server). */
  fetch?: typeof fetch;
  /** Load into a warehouse of SYNTHETIC rows (tests and benchmarks of the load itself). */
  synthetic?: boolean;
  /** Told after each state-year is published. */
  onPublished?: (state: string) => void;
}

/** What to load: a year, its official aggregates and where each state's file is. */
interface Plan {
  year: number;
  aggregates: StateAggregates;
  /** States with records in the aggregates, fewest first (the first answers come soonest). */
  states: string[];
  /** A state's file: a mirror path, or the publisher URL to download. */
  file: (state: string) => { mirror?: string; url: string };
  transmittal: { mirror?: string; url: string };
}

type Planned = { plan: Plan } | { status: Pick<HmdaLoadStatus, 'state' | 'message'> & { year?: number } };

const records = (aggregates: StateAggregates, state: string) =>
  Object.values(aggregates[state]?.actionTaken ?? {}).reduce((a, b) => a + b, 0);

function statesOf(aggregates: StateAggregates, available: (state: string) => boolean): string[] {
  return HMDA_STATES.filter((state) => records(aggregates, state) > 0 && available(state)).sort(
    (a, b) => records(aggregates, a) - records(aggregates, b) || a.localeCompare(b),
  );
}

/** A mirror file, plain or gzip, or undefined. */
function mirrorFile(sourceDir: string, mirrorPath: string): string | undefined {
  const base = path.join(sourceDir, mirrorPath);
  return [base, `${base}.gz`].find((candidate) => fs.existsSync(candidate));
}

function planFromMirror(sourceDir: string): Planned {
  const larRoot = path.join(sourceDir, 'hmda', 'lar');
  const years = [...HMDA_YEARS]
    .reverse()
    .filter((year) => HMDA_STATES.some((state) => mirrorFile(sourceDir, larEntry(year, state).mirrorPath)));
  const year = years[0];
  if (year === undefined) {
    return {
      status: {
        state: 'skipped',
        message:
          `No HMDA loan files in the mirror (${larRoot}/YYYY/YYYY_public_lar_XX.csv), so HMDA loan records stay unloaded and query_hmda says so. ` +
          'Put FFIEC state files there and restart, or run `npm run sync -- hmda --years YYYY`.',
      },
    };
  }
  const aggregatesPath = path.join(sourceDir, aggregatesEntry(year).mirrorPath);
  if (!fs.existsSync(aggregatesPath)) {
    return {
      status: {
        state: 'skipped',
        year,
        message: `The mirror has ${year} HMDA loan files but not the official state aggregates (${aggregatesPath}) they are checked against; nothing is loaded.`,
      },
    };
  }
  const aggregates = parseStateAggregates(fs.readFileSync(aggregatesPath, 'utf8'), aggregatesPath);
  return {
    plan: {
      year,
      aggregates,
      states: statesOf(aggregates, (state) => mirrorFile(sourceDir, larEntry(year, state).mirrorPath) !== undefined),
      file: (state) => ({ mirror: mirrorFile(sourceDir, larEntry(year, state).mirrorPath), url: larEntry(year, state).publisherUrl }),
      transmittal: { mirror: mirrorFile(sourceDir, transmittalEntry(year).mirrorPath), url: transmittalEntry(year).publisherUrl },
    },
  };
}

/** The newest year whose state aggregates the publisher serves (so its records are published too). */
async function planFromPublisher(stagingRoot: string, options: FirstLoadOptions): Promise<Planned> {
  await fsp.mkdir(stagingRoot, { recursive: true });
  for (const year of [...HMDA_YEARS].reverse()) {
    const url = aggregatesEntry(year).publisherUrl;
    const target = path.join(stagingRoot, `aggregates-${randomUUID()}.json`);
    try {
      const downloaded = await downloadToFile(url, target, { fetch: options.fetch, signal: options.signal });
      if (!downloaded) continue; // not published yet: the year before
      const aggregates = parseStateAggregates(await fsp.readFile(target, 'utf8'), url);
      return {
        plan: {
          year,
          aggregates,
          states: statesOf(aggregates, () => true),
          file: (state) => ({ url: larEntry(year, state).publisherUrl }),
          transmittal: { url: transmittalEntry(year).publisherUrl },
        },
      };
    } catch (error) {
      return {
        status: {
          state: 'waiting',
          message: `The FFIEC cannot be reached (${(error as Error).message.replace(/\.$/, '')}); the HMDA load is tried again every hour.`,
        },
      };
    } finally {
      await fsp.rm(target, { force: true });
    }
  }
  return {
    status: { state: 'skipped', message: `The FFIEC publishes no state aggregates for ${HMDA_YEARS.join(', ')}; nothing to load.` },
  };
}

/** A state's file on disk: the mirror copy read in place, or a download into staging (removed after). */
async function fetchFile(
  source: { mirror?: string; url: string },
  stagingRoot: string,
  options: FirstLoadOptions,
): Promise<{ path: string; temporary: boolean }> {
  if (source.mirror) return { path: source.mirror, temporary: false };
  await fsp.mkdir(stagingRoot, { recursive: true });
  const target = path.join(stagingRoot, `download-${randomUUID()}.csv`);
  const downloaded = await downloadToFile(source.url, target, { fetch: options.fetch, signal: options.signal });
  if (!downloaded) throw new Error(`${source.url}: the publisher has no such file (HTTP 404).`);
  if (isZip(downloaded.head)) {
    await fsp.writeFile(target, firstZipEntry(await fsp.readFile(target), source.url));
  } else if (downloaded.head[0] === 0x1f && downloaded.head[1] === 0x8b) {
    await fsp.rename(target, `${target}.gz`);
    return { path: `${target}.gz`, temporary: true };
  }
  return { path: target, temporary: true };
}

const checksumOf = async (file: string) => {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

/** Loads what is missing of the latest year; resolves to the final status (never throws for a data problem). */
export async function runHmdaFirstLoad(options: FirstLoadOptions): Promise<HmdaLoadStatus> {
  const { config, logger, progress } = options;
  const clock = options.clock ?? (() => new Date());
  const log = logger.child({ job: 'hmda-first-load' });
  const root = config.hmdaDir;
  const { stagingRoot } = layout(root);
  const update = (change: Partial<HmdaLoadStatus>) => progress.update(change, clock());
  progress.began(clock());

  const planned = config.sourceDir !== undefined ? planFromMirror(config.sourceDir) : await planFromPublisher(stagingRoot, options);
  if ('status' in planned) {
    update({ ...planned.status, year: planned.status.year ?? null, current: null });
    log.info({ state: planned.status.state }, planned.status.message);
    return progress.get();
  }
  const { plan } = planned;
  const lock = lockWarehouse(root);
  if (!lock.acquired) {
    update({
      state: 'waiting',
      year: plan.year,
      message: `Another process (pid ${lock.heldBy}) is writing the HMDA warehouse; the background load tries again in an hour.`,
    });
    log.info({ pid: lock.heldBy }, 'HMDA warehouse busy; background load postponed');
    return progress.get();
  }

  // Holding the lock, anything in staging was left by a writer that died mid-load.
  await fsp.rm(stagingRoot, { recursive: true, force: true });
  const key = (state: string) => partitionKey(plan.year, state);
  const published = () => plan.states.filter((state) => readManifest(root)?.partitions[key(state)] !== undefined).length;
  const failed: HmdaLoadStatus['states_failed'] = [];
  update({
    state: 'loading',
    year: plan.year,
    states_total: plan.states.length,
    states_published: published(),
    states_failed: [],
    current: null,
    message: `Loading HMDA ${plan.year}, state by state.`,
  });
  log.info({ year: plan.year, states: plan.states.length, alreadyLoaded: published() }, 'HMDA background load started');

  const instance = await openInstance({ threads: config.HMDA_THREADS, memoryLimit: config.HMDA_MEMORY_LIMIT });
  const connection = await instance.connect();
  try {
    await connection.run('SET preserve_insertion_order = false');
    await loadTransmittal(plan, options, connection, stagingRoot, log);
    for (const state of plan.states) {
      if (options.signal?.aborted) break;
      if (readManifest(root)?.partitions[key(state)]) continue; // published before a restart
      update({ current: state });
      const started = performance.now();
      let file: { path: string; temporary: boolean } | undefined;
      try {
        file = await fetchFile(plan.file(state), stagingRoot, options);
        const result = await loadLar(connection, {
          root,
          synthetic: options.synthetic ?? false,
          files: [
            {
              csvPath: file.path,
              sourceUrl: plan.file(state).url,
              checksum: await checksumOf(file.path),
              expect: { year: plan.year, state },
            },
          ],
          aggregatesFor: (year) => (year === plan.year ? plan.aggregates : undefined),
          clock,
        });
        update({ states_published: published() });
        log.info(
          {
            year: plan.year,
            state,
            rows: result.rows,
            seconds: Math.round((performance.now() - started) / 100) / 10,
            loaded: published(),
            of: plan.states.length,
          },
          'HMDA state-year published',
        );
        options.onPublished?.(state);
      } catch (error) {
        if (options.signal?.aborted) break;
        const reason = error instanceof Error ? error.message : String(error);
        failed.push({ state, reason });
        update({ states_failed: [...failed] });
        log.warn({ year: plan.year, state, reason }, 'HMDA state-year not published');
      } finally {
        if (file?.temporary) await fsp.rm(file.path, { force: true });
      }
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
    lock.release();
  }

  const count = published();
  if (options.signal?.aborted && count + failed.length < plan.states.length) {
    update({
      current: null,
      message: `Stopped with ${count} of ${plan.states.length} states of ${plan.year} loaded; the rest load at the next start.`,
    });
    return progress.get();
  }
  const failures =
    failed.length > 0
      ? ` ${failed.length} not published (${failed.map((f) => f.state).join(', ')}): they are tried again at the next start, or with \`npm run sync -- hmda --years ${plan.year} --states ${failed.map((f) => f.state).join(',')}\`.`
      : '';
  update({
    state: 'done',
    current: null,
    states_published: count,
    message: `HMDA ${plan.year}: ${count} of ${plan.states.length} states loaded.${failures} Add years with \`npm run sync -- hmda --years ${plan.year - 1}\`.`,
  });
  log.info({ year: plan.year, loaded: count, failed: failed.map((f) => f.state) }, 'HMDA background load finished');
  return progress.get();
}

/** Lender names for the year, when its transmittal sheet is reachable and not loaded yet. */
async function loadTransmittal(
  plan: Plan,
  options: FirstLoadOptions,
  connection: Awaited<ReturnType<Awaited<ReturnType<typeof openInstance>>['connect']>>,
  stagingRoot: string,
  log: Logger,
): Promise<void> {
  const root = options.config.hmdaDir;
  // Transmittal sheets hold real filers: never in a synthetic warehouse.
  if (options.synthetic || readManifest(root)?.lenders[String(plan.year)]) return;
  let file: { path: string; temporary: boolean } | undefined;
  try {
    if (!plan.transmittal.mirror && options.config.sourceDir !== undefined) return; // not in the mirror: names come from other years
    file = await fetchFile(plan.transmittal, stagingRoot, options);
    await loadLenders(
      connection,
      root,
      { csvPath: file.path, year: plan.year, sourceUrl: plan.transmittal.url, checksum: await checksumOf(file.path) },
      options.clock,
    );
  } catch (error) {
    log.warn(
      { year: plan.year, reason: (error as Error).message },
      'HMDA transmittal sheet not loaded: lender names come from other years',
    );
  } finally {
    if (file?.temporary) await fsp.rm(file.path, { force: true });
  }
}
