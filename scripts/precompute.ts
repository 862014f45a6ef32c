// `npm run precompute`: recomputes the statistics catalogue from the datasets already in the
// database (syncing any input dataset that is not loaded yet first) and prints it per category.
// Exit code 0 when the catalogue was published, 1 when it was not, 2 when another sync is running.
import { loadConfig } from '../api/config.ts';
import { createLogger } from '../api/platform/logger.ts';
import { openDatabase } from '../api/platform/db/open.ts';
import { datasetDefinitions } from '../api/sync/registry.ts';
import { runSync, SyncInProgressError } from '../api/sync/runner.ts';
import { createProgressPrinter, formatSummary } from '../api/sync/console.ts';
import { STATISTICS_DATASET } from '../api/statistics/dataset.ts';
import { CATEGORIES } from '../api/statistics/types.ts';
import { runCli } from './lib/run-cli.ts';

async function main(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', process.stderr);
  const db = await openDatabase(config, logger);
  try {
    const report = await runSync(db, datasetDefinitions, {
      names: [STATISTICS_DATASET],
      options: {},
      logger,
      config,
      onProgress: createProgressPrinter(process.stderr),
    });
    process.stdout.write(`\n${formatSummary(report.results)}\n`);
    const result = report.results.find((entry) => entry.name === STATISTICS_DATASET);
    if (result?.status !== 'ok') {
      process.stderr.write(`precompute: the statistics were not published: ${result?.message ?? 'not run'}\n`);
      return 1;
    }
    const { rows } = await db.query<{ category: string; n: string }>(
      'SELECT category, count(*)::text AS n FROM statistics GROUP BY category',
    );
    const counts = new Map(rows.map((row) => [row.category, row.n]));
    process.stdout.write(
      `${result.rows} statistics: ${CATEGORIES.map((category) => `${category} ${counts.get(category) ?? 0}`).join(', ')}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof SyncInProgressError) {
      process.stderr.write(`precompute: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await db.close();
  }
}

runCli('precompute', main);
