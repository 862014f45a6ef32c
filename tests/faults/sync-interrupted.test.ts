// A sync killed (SIGKILL) in the middle of a dataset load: the running service keeps serving the
// previous load, the database keeps its previous `datasets` record and rows, and the next sync
// completes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { SOURCE_DIR, hasSourceData } from '../support/source-data.ts';
import type { TestDatabase } from '../support/databases.ts';

const DATASET = 'loan_limits_conforming';
const LIMITS_URL = '/api/v1/loan-limits?state=CA&county=Los%20Angeles&year=2026&loan_type=conforming';
const APP_NAME = `mds-fault-sync-${process.pid}`;

function runSync(databaseUrl: string) {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'sync.ts'), DATASET], {
    cwd: PROJECT_ROOT,
    // PGAPPNAME tags the sync's connections so the test can see its open transaction.
    env: { ...process.env, DATABASE_URL: databaseUrl, MDS_SOURCE_DIR: SOURCE_DIR, LOG_LEVEL: 'warn', PGAPPNAME: APP_NAME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe.skipIf(!hasSourceData)('a sync killed mid-load', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let observer: pg.Client;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-fault-sync-'));

  beforeAll(async () => {
    database = await syncedTestDatabase('postgres', [DATASET]);
    observer = new pg.Client({ connectionString: database.url });
    await observer.connect();
    server = await startServerProcess({
      DATABASE_URL: database.url!,
      DATA_DIR: dataDir,
      RATE_LIMIT_ANON_PER_MINUTE: '0',
      RATE_LIMIT_PER_HOUR: '0',
    });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await observer?.end().catch(() => undefined);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const record = async () =>
    (
      await observer.query<{ loaded_at: Date; checksum: string | null; row_count: number }>(
        'SELECT loaded_at, checksum, row_count FROM datasets WHERE name = $1',
        [DATASET],
      )
    ).rows[0];

  it('leaves the previous load served, and the next sync completes', async () => {
    const before = await record();
    expect(before).toBeDefined();
    const served = await fetch(`${server.url}${LIMITS_URL}`);
    expect(served.status).toBe(200);
    const servedBody = await served.text();
    const { rows: countBefore } = await observer.query<{ count: string }>('SELECT count(*)::text AS count FROM loan_limits');

    const doomed = runSync(database.url!);
    // Wait until the sync's transaction has written rows (it holds a transaction id), then kill it.
    const deadline = Date.now() + 30_000;
    let writing = false;
    while (!writing && Date.now() < deadline && doomed.child.exitCode === null) {
      const { rows } = await observer.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM pg_stat_activity WHERE application_name = $1 AND backend_xid IS NOT NULL AND state <> 'idle'",
        [APP_NAME],
      );
      writing = rows[0]?.n !== '0';
      if (!writing) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(writing).toBe(true);
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBeNull(); // killed, not finished
    expect(doomed.output()).not.toMatch(new RegExp(`${DATASET}: ok`));

    // While the dead connection is being cleaned up and afterwards, the old data is what is served.
    for (let i = 0; i < 5; i += 1) {
      const response = await fetch(`${server.url}${LIMITS_URL}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(servedBody);
    }
    const afterKill = await record();
    expect(afterKill?.loaded_at.toISOString()).toBe(before!.loaded_at.toISOString());
    expect(afterKill?.checksum).toBe(before!.checksum);
    const { rows: countAfterKill } = await observer.query<{ count: string }>('SELECT count(*)::text AS count FROM loan_limits');
    expect(countAfterKill[0]?.count).toBe(countBefore[0]?.count);

    // The next sync is not blocked by the dead one (its lock died with its connection) and completes.
    const next = runSync(database.url!);
    expect(await next.exited, next.output()).toBe(0);
    expect(next.output()).toMatch(new RegExp(`${DATASET}\\s+ok`));
    const afterNext = await record();
    expect(afterNext!.loaded_at.getTime()).toBeGreaterThan(before!.loaded_at.getTime());
    expect(afterNext?.row_count).toBe(before!.row_count);
    const response = await fetch(`${server.url}${LIMITS_URL}`);
    expect(response.status).toBe(200);
    expect((await response.json()) as unknown).toEqual(JSON.parse(servedBody));
  }, 90_000);
});
