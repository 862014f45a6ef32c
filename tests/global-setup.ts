// Runs once before the suite: fails fast, with instructions, when the PostgreSQL that integration
// tests need is not reachable (instead of every test timing out), and in CI when the official source
// files are missing (their tests would be skipped, so the run would prove nothing about them).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { templateFile } from '../api/platform/db/pglite-template.ts';
import { POSTGRES_ADMIN_URL } from './support/databases.ts';
import { syncFingerprint } from './support/sync-fingerprint.ts';
import { dropSyncedTemplates, newTestRunId } from './support/synced-templates.ts';

// As tests/support/source-data.ts resolves it (that module imports app code: not loaded here).
const SOURCE_DIR = path.resolve(
  process.env.MDS_SOURCE_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'data'),
);

/**
 * The empty embedded database the install keeps for new data folders (api/platform/db/pglite-template.ts),
 * made as `npm start` makes it when a checkout has none yet: the test databases' starting points
 * (tests/support/pglite-templates.ts) and every server process the tests start on a new data folder
 * load it instead of running initdb, which both workers of a run used to do at once. In a process of
 * its own (initdb holds ~1 GiB); not fatal, without it initdb runs where it is needed, as before.
 */
function prepareEmptyDatabase(): Promise<void> {
  if (fs.existsSync(templateFile())) return Promise.resolve();
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'prepare-database.ts');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => resolve());
    child.on('exit', () => resolve());
  });
}

const inCi = (env: NodeJS.ProcessEnv) => env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase());

/**
 * Starts building the shared synced template (tests/support/build-shared-template.ts) in a process
 * of its own, when the run holds the files that need it: the whole suite or the `slow` project, not
 * named files (they build what they need) nor `npm run test:fast`. Stopped at the end of the run if
 * still going (a test file would have built what it needed itself).
 */
function startSharedTemplateBuild(project: TestProject): (() => void) | undefined {
  const vitest = project.vitest as typeof project.vitest & { filenamePattern?: string[] };
  if (vitest.filenamePattern !== undefined || !vitest.projects.some((each) => each.name === 'slow')) return undefined;
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'build-shared-template.ts');
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'ignore', 'inherit'], env: process.env });
  child.on('error', () => undefined);
  return () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const emptyDatabase = prepareEmptyDatabase();
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
  const hasSourceData = fs.existsSync(path.join(SOURCE_DIR, 'SOURCES.md'));
  if (!hasSourceData && inCi(process.env)) {
    throw new Error(
      `CI is set but the official source files are not at ${SOURCE_DIR} (MDS_SOURCE_DIR): the tests that need them would be skipped.`,
    );
  }
  // Synced-database templates (tests/support/synced.ts) of this run are per run; reusable ones are
  // keyed by the sync fingerprint, computed once here for every worker.
  const runId = newTestRunId();
  process.env.MDS_TEST_RUN_ID = runId;
  const fingerprint = hasSourceData ? syncFingerprint(SOURCE_DIR) : undefined;
  if (fingerprint !== undefined) process.env.MDS_TEST_SYNC_FINGERPRINT = fingerprint;
  await emptyDatabase;
  const stopBuild = hasSourceData ? startSharedTemplateBuild(project) : undefined;
  return async () => {
    stopBuild?.();
    await dropSyncedTemplates(runId, fingerprint);
  };
}
