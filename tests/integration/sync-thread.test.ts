// The server's background sync runs its loads on a thread of its own (api/sync/run-in-thread.ts),
// against either database as the server opens it: the loads run off the main thread, each publish
// reaches the main thread's dataset status, an abort stops the sync before its next dataset, and a
// thread that crashes mid-load is a failed sync: reported, its transaction rolled back, the sync
// lock released.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../api/config.ts';
import type { Database } from '../../api/platform/db/database.ts';
import { openDatabase } from '../../api/platform/db/open.ts';
import { createDatasetStatus } from '../../api/platform/datasets.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { startBackgroundSync } from '../../api/sync/background.ts';
import { syncLockHeld, withSyncLock } from '../../api/platform/db/sync-lock.ts';
import { runSyncInThread } from '../../api/sync/run-in-thread.ts';
import { SyncInProgressError } from '../../api/sync/runner.ts';
import { createScratchPostgres, databaseKinds } from '../support/databases.ts';
import { datasetDefinitions, GATE_OPEN, GATE_REACHED } from '../support/thread-datasets.ts';

const definitionsModule = new URL('../support/thread-datasets.ts', import.meta.url);
const silent = createLogger('silent');

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(databaseKinds)('the background sync on its own thread (%s)', (kind) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-sync-thread-'));
  let config: Config;
  let db: Database;
  let dropScratch: (() => Promise<void>) | undefined;

  const details = async (name: string) =>
    (await db.query<{ details: Record<string, unknown> }>('SELECT details FROM datasets WHERE name = $1', [name])).rows[0]?.details;

  beforeAll(async () => {
    const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    if (kind === 'postgres') {
      const scratch = await createScratchPostgres();
      dropScratch = scratch.drop;
      env.DATABASE_URL = scratch.url;
    }
    config = loadConfig(env);
    db = await openDatabase(config, silent);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await dropScratch?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads on another thread, and each publish invalidates the main thread’s dataset status', async () => {
    const datasets = createDatasetStatus({ db, cacheMs: 60_000 });
    expect((await datasets.list()).map((record) => record.name)).not.toContain('where_it_ran');
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    // The server renders pages ahead only once told the start-up sync caught up: after its loads.
    let caughtUp = false;
    let loadedWhenCaughtUp = false;
    const stop = startBackgroundSync(
      { config: { ...config, SYNC_ON_START: true, SYNC_DAILY: false }, db, logger, clock: () => new Date(), services: { datasets } },
      {
        definitions: datasetDefinitions,
        timing: { firstDelayMs: 10, maxDelayMs: 10 },
        run: (request) => runSyncInThread({ config, db }, { ...request, definitionsModule }),
        onCaughtUp: () => {
          caughtUp = true;
          loadedWhenCaughtUp = lines.some((line) => line.includes('dataset synced'));
        },
      },
    );
    try {
      await until('the start-up sync to catch up', () => caughtUp);
    } finally {
      stop();
    }
    expect(loadedWhenCaughtUp).toBe(true);
    // Without a start-up sync there is nothing to wait for.
    let toldAtOnce = false;
    startBackgroundSync(
      { config: { ...config, SYNC_ON_START: false, SYNC_DAILY: false }, db, logger, clock: () => new Date(), services: { datasets } },
      { definitions: datasetDefinitions, onCaughtUp: () => (toldAtOnce = true) },
    )();
    expect(toldAtOnce).toBe(true);
    // The cached list (kept for a minute) was dropped when the thread said the dataset was published.
    expect((await datasets.list()).map((record) => record.name)).toContain('where_it_ran');
    expect(await details('where_it_ran')).toMatchObject({ mainThread: false });
    expect(lines.find((line) => line.includes('dataset synced'))).toMatch(/"job":"sync"/);
    expect(await syncLockHeld(db)).toBe(false);
  }, 60_000);

  it('holds the sync lock on the main thread while the thread loads', async () => {
    fs.rmSync(path.join(dataDir, GATE_REACHED), { force: true });
    fs.rmSync(path.join(dataDir, GATE_OPEN), { force: true });
    const sync = runSyncInThread({ config, db }, { names: ['waits_at_gate'], logger: silent, definitionsModule });
    await until('the load to start', () => fs.existsSync(path.join(dataDir, GATE_REACHED)));
    expect(await syncLockHeld(db)).toBe(true);
    await expect(runSyncInThread({ config, db }, { names: ['where_it_ran'], logger: silent, definitionsModule })).rejects.toThrow(
      SyncInProgressError,
    );
    fs.writeFileSync(path.join(dataDir, GATE_OPEN), '');
    expect((await sync).results.map((result) => [result.name, result.status])).toEqual([['waits_at_gate', 'ok']]);
    expect(await syncLockHeld(db)).toBe(false);
  }, 60_000);

  it('stops before the next dataset when aborted', async () => {
    await db.query("DELETE FROM datasets WHERE name IN ('waits_at_gate', 'where_it_ran')");
    fs.rmSync(path.join(dataDir, GATE_REACHED), { force: true });
    fs.rmSync(path.join(dataDir, GATE_OPEN), { force: true });
    const controller = new AbortController();
    const published: string[] = [];
    const sync = runSyncInThread(
      { config, db },
      {
        names: ['waits_at_gate', 'where_it_ran'],
        logger: silent,
        signal: controller.signal,
        onPublished: (result) => published.push(result.name),
        definitionsModule,
      },
    );
    await until('the first load to start', () => fs.existsSync(path.join(dataDir, GATE_REACHED)));
    controller.abort();
    fs.writeFileSync(path.join(dataDir, GATE_OPEN), '');
    const report = await sync;
    expect(report.results.map((result) => result.name)).toEqual(['waits_at_gate']);
    expect(published).toEqual(['waits_at_gate']);
    expect(await details('where_it_ran')).toBeUndefined();
  }, 60_000);

  it('reports a thread that crashes mid-load as a failed sync, rolls its load back and releases the lock', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const datasets = createDatasetStatus({ db });
    const stop = startBackgroundSync(
      { config: { ...config, SYNC_ON_START: true, SYNC_DAILY: false }, db, logger, clock: () => new Date(), services: { datasets } },
      {
        definitions: datasetDefinitions,
        timing: { firstDelayMs: 60_000, maxDelayMs: 60_000 },
        run: (request) => runSyncInThread({ config, db }, { ...request, names: ['crashes_mid_load'], definitionsModule }),
      },
    );
    await db.query("DELETE FROM datasets WHERE name = 'where_it_ran'"); // so the start-up sync has something to do
    try {
      await until('the failure to be logged', () => lines.some((line) => line.includes('background sync failed')));
    } finally {
      stop();
    }
    expect(lines.find((line) => line.includes('background sync failed'))).toMatch(/crashed on purpose/);
    expect(await syncLockHeld(db)).toBe(false);
    // Its transaction rolled back, and the database takes the next one (the embedded one does not wait for it forever).
    expect(await details('crashes_mid_load')).toBeUndefined();
    const again = await withSyncLock(db, () =>
      db.transaction((tx) => tx.query("INSERT INTO datasets (name, source_url) VALUES ('after_the_crash', 'x')")),
    );
    expect(again.acquired).toBe(true);
    expect(await details('after_the_crash')).toEqual({});
  }, 60_000);
});
