// Two instances on one PostgreSQL, each syncing missing datasets at start-up. The first is frozen
// (SIGSTOP) in the middle of its sync, holding the sync lock; the second starts, finds the lock
// taken and, meanwhile, says the missing datasets are loading (since when). Then the first is
// killed: its lock dies with its connection, and the second, looking again with backoff, loads
// every dataset by itself; the first's unfinished attempts read as interrupted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { createScratchPostgres } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { hasSourceData, partialMirror } from '../support/source-data.ts';

const DEFAULTS = datasetDefinitions.filter((definition) => definition.syncByDefault !== false).map((definition) => definition.name);

type Health = { datasets: Record<string, { state: string; loading_since?: string; last_failure?: { at: string; reason: string } }> };

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe.skipIf(!hasSourceData)('an instance whose sync holder dies', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let observer: pg.Client;
  const servers: ServerProcess[] = [];
  const dataDirs: string[] = [];
  // Part of the mirror: the counties load first, then the conforming limits take seconds (the first
  // is frozen there), then the rates and the calendar. A sync of every file, twice through server
  // processes, was a minute and a half of this file on a busy machine; the others settle as missing.
  let mirror = '';

  const start = (name: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mds-lock-${name}-`));
    dataDirs.push(dataDir);
    return startServerProcess(
      {
        DATABASE_URL: scratch.url,
        DATA_DIR: dataDir,
        MDS_SOURCE_DIR: mirror,
        SYNC_ON_START: 'true',
        RATE_LIMIT_ANON_PER_MINUTE: '0',
        RATE_LIMIT_PER_HOUR: '0',
        // Looks again after 0.5 s, 1 s, 2 s… instead of 5 s, 10 s, 20 s…: the same catch-up, less waiting.
        SYNC_CATCH_UP_DELAY_MS: '500',
      },
      120_000,
    );
  };

  beforeAll(async () => {
    mirror = partialMirror(['geo', 'loan_limits/fhfa_conforming', 'rates', 'calendar']);
    scratch = await createScratchPostgres();
    observer = new pg.Client({ connectionString: scratch.url });
    await observer.connect();
  });

  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGCONT');
      await server.stop('SIGKILL');
    }
    await observer?.end().catch(() => undefined);
    await scratch?.drop();
    for (const dir of [...dataDirs, ...(mirror ? [mirror] : [])]) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function settledLoadedSet(): Promise<{ name: string }[]> {
    let previous = '';
    for (;;) {
      const { rows } = await observer.query<{ name: string }>('SELECT name FROM datasets ORDER BY name');
      const now = rows.map((row) => row.name).join(',');
      if (now === previous) return rows;
      previous = now;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  it('loads every dataset by itself once the frozen holder is killed', async () => {
    const first = await start('first');
    servers.push(first);
    // Freeze it once its sync has published something and still has datasets to go.
    const frozenRun = await until(
      'the first instance to be half-way through its sync',
      async () => {
        const { rows } = await observer.query<{ run_id: string; loaded: string }>(
          `SELECT r.run_id, (SELECT count(*)::text FROM datasets) AS loaded
             FROM sync_runs r WHERE r.status = 'running' LIMIT 1`,
        );
        return rows[0] && Number(rows[0].loaded) >= 1 ? rows[0].run_id : undefined;
      },
      60_000,
      20,
    );
    first.child.kill('SIGSTOP');
    // A commit the first sent just before it froze may still land: read what it loaded only once
    // the loaded set has held still for a second.
    const loadedByFirst = await settledLoadedSet();
    const missing = DEFAULTS.filter((name) => !loadedByFirst.some((row) => row.name === name));
    expect(missing.length).toBeGreaterThan(0);

    const second = await start('second');
    servers.push(second);
    await until(
      'the second instance to find the lock taken',
      async () => (/another instance is syncing/.test(second.output()) ? true : undefined),
      60_000,
    );
    // Meanwhile it tells readers the truth: the frozen sync holds the lock, so the datasets are loading.
    const waiting = (await (await fetch(`${second.url}/healthz`)).json()) as Health;
    for (const name of missing) expect(waiting.datasets[name], name).toMatchObject({ state: 'loading', loading_since: expect.any(String) });

    first.child.kill('SIGKILL');
    await first.exited;

    // Until the second looks again (with backoff), the first's unfinished attempts read as failed
    // (interrupted): wait for every dataset to be settled by an attempt of the second's own.
    const latestAttempts = async () =>
      (
        await observer.query<{ dataset: string; run_id: string; status: string; reason: string | null }>(
          'SELECT DISTINCT ON (dataset) dataset, run_id, status, reason FROM sync_runs ORDER BY dataset, id DESC',
        )
      ).rows;
    const { health, latest } = await until(
      'the second instance to load what the first left',
      async () => {
        const body = (await (await fetch(`${second.url}/healthz`)).json()) as Health;
        const attempts = await latestAttempts();
        // Settled: loaded, failed, or missing (a source with nothing to load here, e.g. the FFIEC's APOR table).
        const settled = DEFAULTS.every((name) => ['loaded', 'failed', 'missing'].includes(body.datasets[name]?.state ?? ''));
        const retried = missing.every((name) =>
          attempts.some((row) => row.dataset === name && row.run_id !== frozenRun && row.status !== 'running'),
        );
        return settled && retried ? { health: body, latest: attempts } : undefined;
      },
      180_000,
      500,
    );
    // Every dataset the first left behind was attempted by the second, in a run of its own.
    for (const name of missing) {
      const attempt = latest.find((row) => row.dataset === name);
      expect(
        attempt?.run_id,
        `${name}: ${JSON.stringify({ attempt, state: health.datasets[name], loadedByFirst: loadedByFirst.map((row) => row.name) })}`,
      ).not.toBe(frozenRun);
      // A dataset may fail or be skipped on its own (a publisher's file this code refuses, an online-only
      // source under MDS_SOURCE_DIR), never by the first's death.
      if (attempt?.status !== 'ok') {
        expect(['failed', 'skipped'], `${name}: ${attempt?.reason}`).toContain(attempt?.status);
        expect(attempt?.reason, name).not.toMatch(/interrupted/);
        expect(health.datasets[name]?.state).toBe(attempt?.status === 'skipped' ? 'missing' : 'failed');
      } else {
        expect(health.datasets[name]?.state).toBe('loaded');
      }
    }
    const loadedBySecond = missing.filter((name) => health.datasets[name]?.state === 'loaded');
    expect(loadedBySecond.length, `loaded by the second: ${loadedBySecond.join(', ')}`).toBeGreaterThan(0);
    // The first's attempt that was under way when it died is closed as interrupted.
    const { rows: interrupted } = await observer.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM sync_runs WHERE run_id = $1 AND status = 'interrupted'",
      [frozenRun],
    );
    expect(Number(interrupted[0]?.n)).toBeGreaterThan(0);
    // And it stops looking: it checks once more after its own sync, then says it has caught up.
    await until(
      'the second instance to stop looking',
      async () => (/start-up sync caught up/.test(second.output()) ? true : undefined),
      90_000,
    );
  }, 360_000);
});
