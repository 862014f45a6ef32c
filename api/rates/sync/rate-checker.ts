// CFPB Rate Checker adapter (dataset `rate_checker`, synced by default): for each state × FICO tier ×
// LTV tier × product × term it asks the public `rate-checker` endpoint for the histogram of rates
// lenders offer, keeps the mode and records how many offers it counted. By default it asks for the
// conventional 30-year cells of every state (510 requests), politely (rate-checker-api.ts).
//
// Resumable: every answer is kept for the day under DATA_DIR/rate-checker/<day>/, so a run that stops
// half-way (network, shutdown) picks up where it stopped and a second run that day asks nothing.
// With MDS_SOURCE_DIR set there is nothing to read (the publisher offers no file): the dataset is
// skipped, saying so, and the sync still succeeds.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatasetSkippedError, SourceUnavailableError, ValidationError } from '../../sync/errors.ts';
import { listOption } from '../../sync/runner.ts';
import { archiveLender } from '../snapshot.ts';
import type { DatasetDefinition, SyncContext } from '../../sync/types.ts';
import { STATE_CODES, type FicoTier, type LoanTerm, type LtvTier, type ProductType, type StateCode } from '../contract.ts';
import { countLenderRows, upsertLenderRows, type LenderRow } from './lender-store.ts';
import {
  createPoliteClient,
  parseRateCheckerResponse,
  RATE_CHECKER_LOAN_TYPES,
  RATE_CHECKER_URL,
  rateCheckerQuery,
  RateCheckerRequestError,
  type PoliteClientOptions,
  type RateCheckerCell,
} from './rate-checker-api.ts';

export { parseRateCheckerResponse, RATE_CHECKER_URL, rateCheckerQuery, type RateCheckerCell, type RateHistogram } from './rate-checker-api.ts';

export const RATE_CHECKER_DATASET = 'rate_checker';
export const RATE_CHECKER_SOURCE = 'CFPB Rate Checker';

/** The Rate Checker quotes 30- and 15-year fixed terms only. */
const TERMS: LoanTerm[] = [30, 15];
/** What a bare sync asks for: the cells the issue of state rates is about. `--products`/`--terms` widen it. */
const DEFAULT_PRODUCTS: ProductType[] = ['conventional'];
const DEFAULT_TERMS: LoanTerm[] = [30];
/** Consecutive requests that reach nobody before the run gives up on an unreachable publisher. */
const UNREACHABLE_AFTER = 5;
/** At least this share of the cells must answer, or the load fails (what answered stays cached). */
const MIN_ANSWERED_SHARE = 0.5;

export interface RateCheckerOptions extends PoliteClientOptions {
  baseUrl?: string;
  /** Requests in flight at once (default 2). */
  concurrency?: number;
  /** Where answers are kept for the day; default DATA_DIR/rate-checker. */
  cacheDir?: string;
}

function cellsFor(context: SyncContext): RateCheckerCell[] {
  const pick = <T extends string | number>(name: string, all: readonly T[], fallback: readonly T[], parse: (text: string) => T): T[] => {
    const listed = listOption(context.options, name);
    if (!listed) return [...fallback];
    const values = listed.map(parse);
    const bad = values.filter((value) => !all.includes(value));
    if (bad.length > 0) throw new ValidationError(`--${name}: ${bad.join(', ')} not among ${all.join(', ')}`);
    return values;
  };
  const states = pick('states', STATE_CODES, STATE_CODES, (text) => text.toUpperCase() as StateCode);
  const quoted = Object.keys(RATE_CHECKER_LOAN_TYPES) as ProductType[];
  const products = pick('products', quoted, DEFAULT_PRODUCTS, (text) => text.toLowerCase() as ProductType);
  const terms = pick('terms', TERMS, DEFAULT_TERMS, (text) => Number(text) as LoanTerm);
  const cells: RateCheckerCell[] = [];
  for (const state of states)
    for (const productType of products)
      for (const loanTerm of terms)
        for (const fico of [1, 2, 3, 4, 5] as FicoTier[])
          for (const ltv of [1, 2] as LtvTier[]) cells.push({ state, fico, ltv, productType, loanTerm });
  return cells;
}

const cellName = (cell: RateCheckerCell) => `${cell.state}-${cell.productType}-${cell.loanTerm}-fico${cell.fico}-ltv${cell.ltv}`;

/** The day's answers on disk: read before asking, written as they arrive, older days removed. */
function dayCache(root: string, day: string) {
  const folder = path.join(root, day);
  return {
    read(cell: RateCheckerCell): string | undefined {
      try {
        return fs.readFileSync(path.join(folder, `${cellName(cell)}.json`), 'utf8');
      } catch {
        return undefined;
      }
    },
    write(cell: RateCheckerCell, body: string): void {
      fs.mkdirSync(folder, { recursive: true });
      const file = path.join(folder, `${cellName(cell)}.json`);
      const partial = `${file}.${process.pid}.partial`;
      fs.writeFileSync(partial, body);
      fs.renameSync(partial, file); // never half a file for the next run to trust
    },
    pruneOtherDays(): void {
      if (!fs.existsSync(root)) return;
      for (const entry of fs.readdirSync(root)) {
        if (entry !== day && /^\d{4}-\d{2}-\d{2}$/.test(entry)) fs.rmSync(path.join(root, entry), { recursive: true, force: true });
      }
    },
  };
}

interface Failure {
  cell: RateCheckerCell;
  reason: string;
}

export function createRateCheckerDataset(options: RateCheckerOptions = {}): DatasetDefinition {
  const baseUrl = options.baseUrl ?? RATE_CHECKER_URL;
  return {
    name: RATE_CHECKER_DATASET,
    description:
      'CFPB Rate Checker: most common offered rate by state × FICO × LTV (default: conventional 30-year in every state; ' +
      '--states, --products conventional,fha,va,jumbo, --terms 30,15). Online only: skipped with MDS_SOURCE_DIR',
    archive: (tx) => archiveLender(tx, 'rate_checker'),
    async load(tx, context) {
      if (context.config.sourceDir !== undefined) {
        throw new DatasetSkippedError(
          'MDS_SOURCE_DIR is set and the CFPB Rate Checker is an online service with no file to read there; state rates were ' +
            'not refreshed (earlier ones stay served until they are 30 days old). Sync without MDS_SOURCE_DIR to load them.',
        );
      }
      const cells = cellsFor(context);
      const today = context.clock().toISOString().slice(0, 10);
      const cache = dayCache(options.cacheDir ?? path.join(context.config.dataDir, 'rate-checker'), today);
      cache.pruneOtherDays();
      const client = createPoliteClient(options);
      const hash = createHash('sha256');
      const rows: LenderRow[] = [];
      const failures: Failure[] = [];
      let empty = 0;
      let fromCache = 0;
      let next = 0;
      let done = 0;
      let answered = 0;
      let unreachableInARow = 0;
      let giveUp: string | undefined;

      const handle = (index: number, cell: RateCheckerCell, url: string, body: string) => {
        hash.update(`${index}:${body}`);
        const histogram = parseRateCheckerResponse(body, url);
        answered += 1;
        if (!histogram) {
          empty += 1;
          return;
        }
        rows.push({ ...cell, source: RATE_CHECKER_SOURCE, sourceKind: 'rate_checker', sourceUrl: url,
          date: histogram.date ?? today, rate: histogram.mode, distributionSize: histogram.size });
      };

      const worker = async () => {
        for (let index = next++; index < cells.length && giveUp === undefined; index = next++) {
          const cell = cells[index] as RateCheckerCell;
          const url = `${baseUrl}?${rateCheckerQuery(cell).toString()}`;
          const cached = cache.read(cell);
          try {
            if (cached !== undefined) {
              fromCache += 1;
              handle(index, cell, url, cached);
            } else {
              const body = await client.get(url);
              // Checked before it is kept: a malformed answer is never reused by the next run.
              parseRateCheckerResponse(body, url);
              cache.write(cell, body);
              unreachableInARow = 0;
              handle(index, cell, url, body);
            }
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            failures.push({ cell, reason });
            if (error instanceof RateCheckerRequestError && error.unreachable) {
              unreachableInARow += 1;
              if (unreachableInARow >= UNREACHABLE_AFTER && answered === 0) giveUp = reason;
            }
          }
          context.progress((done += 1), cells.length);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));

      const summary = {
        cells: cells.length,
        answered,
        with_offers: rows.length,
        without_offers: empty,
        failed: failures.length,
        from_earlier_run_today: fromCache,
        requests: client.requests(),
        offers: rows.reduce((sum, row) => sum + (row.distributionSize ?? 0), 0),
        failures: failures.slice(0, 20).map((failure) => `${cellName(failure.cell)}: ${failure.reason}`),
      };
      if (giveUp !== undefined) {
        throw new SourceUnavailableError(`${baseUrl}: the CFPB Rate Checker is unreachable (${giveUp}); no cell answered.`);
      }
      if (answered < cells.length * MIN_ANSWERED_SHARE) {
        throw new SourceUnavailableError(
          `${baseUrl}: only ${answered} of ${cells.length} cells answered (first failure: ${summary.failures[0] ?? 'none'}). ` +
            'The answers received are kept for today; the next sync asks only for the rest.',
        );
      }
      if (rows.length === 0) throw new ValidationError(`Rate Checker returned no offers for any of ${cells.length} cells`);
      const changed = await upsertLenderRows(tx, rows);
      const asOf = rows.map((row) => row.date).sort().at(-1) ?? today;
      const log = failures.length > 0 ? context.logger.warn.bind(context.logger) : context.logger.info.bind(context.logger);
      log(
        summary,
        `Rate Checker: ${rows.length} cells with offers, ${empty} without, ${failures.length} failed, of ${cells.length}` +
          ` (${fromCache} from an earlier run today, ${client.requests()} requests)`,
      );
      return {
        asOf,
        sourceUrl: baseUrl,
        checksum: hash.digest('hex'),
        rows: await countLenderRows(tx, 'rate_checker'),
        changed,
        details: summary,
      };
    },
  };
}
