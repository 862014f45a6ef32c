// Runs key holders' custom SQL in a DuckDB instance of its own: external access off except reading
// the warehouse folder, configuration locked, memory and threads capped, a timer that interrupts
// the connection at the statement timeout, and a row cap. Queries pass sql-guard.ts first.
import fs from 'node:fs';
import path from 'node:path';
import { StatementType, type DuckDBConnection, type DuckDBInstance } from '@duckdb/node-api';
import { BadRequestError, ServiceUnavailableError } from '../platform/http/errors.ts';
import { literal, openInstance, readerRows, type JsonRow } from './duck.ts';
import { checkSyntaxTree, checkText } from './sql-guard.ts';
import { larGlob, lendersGlob } from './warehouse.ts';
import { LENDER_COLUMNS } from './schema.ts';

export interface SandboxOptions {
  root: string;
  threads: number;
  memoryLimit: string;
  timeoutMs: number;
  rowCap: number;
  /** Queries running at once; more wait in line (up to `queueLimit`), then get a 503. */
  concurrency?: number;
  queueLimit?: number;
}

export interface SandboxResult {
  columns: string[];
  rows: JsonRow[];
  truncated: boolean;
  elapsedMs: number;
}

/** SQL of the two views, shared with the trusted connection of the presets. */
export function viewStatements(root: string): string[] {
  const hasLar = fs.existsSync(path.join(root, 'lar'));
  const hasLenders = fs.existsSync(path.join(root, 'lenders'));
  const emptyLenders = `SELECT ${LENDER_COLUMNS.map((c) => `CAST(NULL AS ${c.type}) AS ${c.name}`).join(', ')} WHERE false`;
  return [
    hasLar
      ? `CREATE OR REPLACE VIEW lar AS SELECT * FROM read_parquet(${literal(larGlob(root))}, hive_partitioning = true, hive_types = {'year': INTEGER, 'state': VARCHAR})`
      : 'DROP VIEW IF EXISTS lar',
    hasLenders
      ? `CREATE OR REPLACE VIEW lenders AS SELECT * FROM read_parquet(${literal(lendersGlob(root))}, hive_partitioning = false)`
      : `CREATE OR REPLACE VIEW lenders AS ${emptyLenders}`,
  ];
}

function userMessage(error: unknown, root: string): string {
  const raw = error instanceof Error ? error.message : String(error);
  return raw.split(root).join('<warehouse>').split('\n')[0]?.slice(0, 500) ?? raw;
}

export function createSandbox(options: SandboxOptions) {
  let instance: Promise<DuckDBInstance> | undefined;
  let active = 0;
  const waiting: (() => void)[] = [];
  const concurrency = options.concurrency ?? 2;
  const queueLimit = options.queueLimit ?? 16;

  async function open(): Promise<DuckDBInstance> {
    const created = await openInstance({ threads: options.threads, memoryLimit: options.memoryLimit });
    const setup = await created.connect();
    try {
      const root = path.resolve(options.root);
      // No spilling to disk: the memory cap is a hard cap for user queries.
      await setup.run("SET temp_directory = ''");
      await setup.run(`SET allowed_directories = [${literal(root + path.sep)}]`);
      await setup.run('SET enable_external_access = false');
      await setup.run('SET lock_configuration = true');
    } finally {
      setup.closeSync();
    }
    return created;
  }

  async function acquire(): Promise<void> {
    if (active < concurrency) {
      active += 1;
      return;
    }
    if (waiting.length >= queueLimit) {
      throw new ServiceUnavailableError('Too many custom HMDA queries are running; try again in a few seconds.', 5);
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  }

  // The views follow the folder: (re)created when a first partition or lender file appears.
  let viewSignature = '';
  let viewsReady: Promise<void> = Promise.resolve();
  function refreshViews(connection: DuckDBConnection): Promise<void> {
    const statements = viewStatements(options.root);
    const signature = statements.join('\n');
    if (signature === viewSignature) return viewsReady;
    viewSignature = signature;
    viewsReady = (async () => {
      for (const statement of statements) await connection.run(statement);
    })();
    viewsReady.catch(() => {
      viewSignature = '';
    });
    return viewsReady;
  }

  async function run(query: unknown): Promise<SandboxResult> {
    const sql = checkText(query);
    instance ??= open();
    const db = await instance;
    await acquire();
    const connection = await db.connect();
    let timedOut = false;
    const started = performance.now();
    const timer = setTimeout(() => {
      timedOut = true;
      connection.interrupt();
    }, options.timeoutMs);
    try {
      await refreshViews(connection);
      let extracted;
      try {
        extracted = await connection.extractStatements(sql);
      } catch (error) {
        throw new BadRequestError(`Custom SQL could not be parsed: ${userMessage(error, options.root)}`);
      }
      if (extracted.count !== 1) throw new BadRequestError('Custom SQL refused: only one statement is allowed.');
      const tree = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
      checkSyntaxTree(String(tree.getRowsJS()[0]?.[0] ?? ''));
      const prepared = await extracted.prepare(0);
      if (prepared.statementType !== StatementType.SELECT) {
        throw new BadRequestError('Custom SQL refused: only SELECT statements are allowed.');
      }
      if (prepared.parameterCount > 0) throw new BadRequestError('Custom SQL refused: write values into the query; parameters ($1, ?) are not supported here.');
      const reader = await prepared.streamAndReadUntil(options.rowCap + 1);
      const rows = readerRows(reader);
      return {
        columns: reader.columnNames(),
        rows: rows.slice(0, options.rowCap),
        truncated: rows.length > options.rowCap || !reader.done,
        elapsedMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      if (timedOut) {
        throw new BadRequestError(
          `The query ran longer than the ${options.timeoutMs} ms limit and was stopped. Narrow it with WHERE year = … AND state = …, or aggregate with GROUP BY.`,
        );
      }
      if (error instanceof BadRequestError || error instanceof ServiceUnavailableError) throw error;
      const message = userMessage(error, options.root);
      if (/out of memory/i.test(message)) {
        throw new BadRequestError(`The query needs more memory than the ${options.memoryLimit} limit. Aggregate or filter more narrowly.`);
      }
      if (/^(Binder|Parser|Catalog|Conversion|Invalid Input|Out of Range|Permission|Not implemented|Constraint)/i.test(message)) {
        throw new BadRequestError(`Custom SQL failed: ${message}`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      connection.closeSync();
      release();
    }
  }

  return {
    run,
    close(): void {
      const pending = instance;
      instance = undefined;
      void pending?.then((db) => db.closeSync()).catch(() => undefined);
    },
  };
}

export type Sandbox = ReturnType<typeof createSandbox>;
