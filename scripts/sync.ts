// `npm run sync [dataset ...] [-- --years 2024,2025 --states CO,TX --all]`: loads official datasets
// into the configured database, with a progress bar per dataset and a summary table. Exit code 0
// when every dataset loaded, 1 when any failed, 2 for usage errors or when another sync is running.
import { loadConfig } from '../api/config.ts';
import { createLogger } from '../api/platform/logger.ts';
import { openDatabase } from '../api/platform/db/open.ts';
import { datasetDefinitions } from '../api/sync/registry.ts';
import { runSync, SyncInProgressError, SyncPlanError } from '../api/sync/runner.ts';
import { createProgressPrinter, formatSummary, parseArguments } from '../api/sync/console.ts';
import { runCli } from './lib/run-cli.ts';

const USAGE = `Usage: npm run sync -- [dataset ...] [--years 2024,2025|2018-2021] [--states CO,TX] [--all]

Loads each dataset from its official publisher (or from MDS_SOURCE_DIR when set) into the database.
With no dataset names it syncs every default dataset; --all adds the large optional ones (HMDA).
Datasets: ${datasetDefinitions.map((definition) => `\n  ${definition.name.padEnd(28)} ${definition.description}`).join('')}
`;

async function main(): Promise<number> {
  const { names, options, help } = parseArguments(process.argv.slice(2));
  if (help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const config = loadConfig();
  // Progress bars own stderr; logs go there too, quietly unless LOG_LEVEL asks for more.
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', process.stderr);
  const db = await openDatabase(config, logger);
  try {
    const started = performance.now();
    const report = await runSync(db, datasetDefinitions, {
      names,
      all: options.all === true,
      options,
      logger,
      config,
      onProgress: createProgressPrinter(process.stderr),
    });
    process.stdout.write(`\n${formatSummary(report.results)}`);
    const failed = report.results.filter((result) => result.status === 'failed').length;
    process.stdout.write(
      `\n${report.results.length} dataset(s) in ${((performance.now() - started) / 1000).toFixed(1)} s` +
        `${failed > 0 ? `; ${failed} failed (the previous load of each stays served)` : ''}` +
        `; source: ${config.sourceDir ?? 'the publishers'}\n`,
    );
    return report.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof SyncInProgressError || error instanceof SyncPlanError) {
      process.stderr.write(`sync: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await db.close();
  }
}

runCli('sync', main);
