// Runs once before the suite: fails fast, with instructions, when the PostgreSQL that integration
// tests need is not reachable (instead of every test timing out).
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './support/databases.ts';
import { dropSyncedTemplates, newTestRunId } from './support/synced-templates.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
  } catch (error) {
    throw new Error(
      `Integration tests need PostgreSQL at ${POSTGRES_ADMIN_URL} (trust auth). ` +
        `Start it (bash scripts/ensure-services.sh) or set TEST_DATABASE_URL. Cause: ${(error as Error).message}`,
      { cause: error },
    );
  }
  // Synced-database templates (tests/support/synced.ts) are per run: workers inherit this id.
  const runId = newTestRunId();
  process.env.MDS_TEST_RUN_ID = runId;
  return () => dropSyncedTemplates(runId);
}
