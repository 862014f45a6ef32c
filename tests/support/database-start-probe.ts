// Run as a process of its own by tests/integration/database-start.test.ts (V8's flags are a
// process's): opens the embedded database on a new folder as the service does (its thread, the
// service's WebAssembly settings, migrations), gives it some work, and prints what the test checks:
// the folder's system identifier beside the empty database's made ahead, and V8's peak compiler memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import '../../api/platform/memory/wasm-settings.ts';
import { createPgliteWorkerDatabase } from '../../api/platform/db/pglite-worker.ts';
import { ensureTemplate, readTemplate } from '../../api/platform/db/pglite-template.ts';
import { runMigrations } from '../../api/platform/db/migrate.ts';

const identifierSql = 'SELECT system_identifier::text AS id FROM pg_control_system()';

await ensureTemplate(() => undefined);
const { PGlite } = await import('@electric-sql/pglite');
const template = await PGlite.create({ loadDataDir: readTemplate() });
const templateIdentifier = (await template.query<{ id: string }>(identifierSql)).rows[0]?.id;
await template.close();

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-database-start-'));
try {
  const db = await createPgliteWorkerDatabase(path.join(folder, 'pglite'));
  await runMigrations(db);
  // Enough work for V8 to tier the database's hot functions up, were it allowed to.
  await db.query('CREATE TEMP TABLE work AS SELECT g AS n, md5(g::text) AS t FROM generate_series(1, 200000) g');
  for (let round = 0; round < 5; round += 1) await db.query('SELECT t, count(*) FROM work GROUP BY t ORDER BY t LIMIT 10');
  const identifier = (await db.query<{ id: string }>(identifierSql)).rows[0]?.id;
  await db.close();
  const { peak_malloced_memory: peakMalloced } = v8.getHeapStatistics();
  process.stdout.write(`${JSON.stringify({ identifier, templateIdentifier, peakMallocedMb: Math.round(peakMalloced / 2 ** 20) })}\n`);
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}
