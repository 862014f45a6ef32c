// While this process syncs, the datasets' overview (what /healthz shows) does not wait for a load's
// open transaction: the embedded database runs one at a time, so it answers from the last overview.
// Outside a sync, and once the load commits, the overview is read fresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatasetStatus } from '../../api/platform/datasets.ts';
import { withSyncLock } from '../../api/platform/db/sync-lock.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';

describe.each(databaseKinds)('dataset overview during a sync on %s', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(() => test.drop());

  it('answers from the last overview while a load writes, and fresh once it has committed', async () => {
    const status = createDatasetStatus({ db: test.db, cacheMs: 0 });
    expect(await status.overview(['pmms'])).toMatchObject([{ name: 'pmms', record: undefined }]);

    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let writing!: () => void;
    const written = new Promise<void>((resolve) => (writing = resolve));
    const sync = withSyncLock(test.db, () =>
      test.db.transaction(async (tx) => {
        await tx.query("INSERT INTO datasets (name, source_url, row_count) VALUES ('pmms', 'https://www.freddiemac.com/pmms', 1)");
        writing();
        await committed;
      }),
    );
    await written;
    // On the embedded database a fresh read would wait for `commit`: this resolves from the last overview.
    const during = await status.overview(['pmms']);
    expect(during.map((entry) => entry.name)).toEqual(['pmms']);
    commit();
    await sync;
    status.invalidate();
    expect((await status.overview(['pmms']))[0]?.record?.rows).toBe(1);
  });
});
