// A sandbox process: runs key holders' custom SQL in a DuckDB of its own, one query at a time, for
// the service (sandbox.ts), which kills the whole process when a query outlives its deadline or its
// memory cap. Here: the engine's settings (no external access but the warehouse folder, no disk
// spill, configuration locked), the guard on DuckDB's own parse of each query, and the result
// built as JSON rows, cut at a row cap or a byte cap, off the service's event loop; or, for a
// result over the answer budget, every row streamed by the engine into a Parquet and a CSV file,
// stopped by the kernel at the export's byte budget (file-size-limit.ts).
import { StatementType } from '@duckdb/node-api';
import fs from 'node:fs';
import path from 'node:path';
import { copyParquetToCsv, literal, openInstance, type JsonRow } from './duck.ts';
import { isFileTooLarge, limitFileSize } from './file-size-limit.ts';
import { chunkRows, isStackOverflow, TOO_DEEP, whyUnanswerable } from './result-cells.ts';
import type { ExportRequest, RunRequest, TruncatedReason, WorkerMessage, WorkerRequest, WorkerSettings } from './sandbox-protocol.ts';
import { lookUpCatalog, serialiseSql } from './sql-catalog.ts';
import { checkQuery, SqlRefusedError } from './sql-guard.ts';
import { viewStatements } from './views.ts';

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function start(settings: WorkerSettings): Promise<void> {
  const instance = await openInstance({ threads: settings.threads, memoryLimit: settings.memoryLimit });
  const connection = await instance.connect();
  const root = path.resolve(settings.root);
  // No spilling to disk: the memory cap is a hard cap for user queries.
  await connection.run("SET temp_directory = ''");
  await connection.run(`SET allowed_directories = [${literal(root + path.sep)}]`);
  await connection.run('SET enable_external_access = false');
  await connection.run('SET lock_configuration = true');

  let viewSignature = '';
  async function refreshViews(): Promise<void> {
    const statements = viewStatements(settings.root);
    const signature = statements.join('\n');
    if (signature === viewSignature) return;
    for (const statement of statements) await connection.run(statement);
    viewSignature = signature;
  }
  await refreshViews();
  const catalog = await lookUpCatalog(connection);

  /** The query prepared, once the guard passed it and the engine agrees it is one plain SELECT; or the syntax error. */
  async function checked(id: number, sql: string) {
    await refreshViews();
    const { syntaxError } = checkQuery(sql, await serialiseSql(connection, sql), catalog);
    if (syntaxError) return { failed: { type: 'failed', id, ...syntaxError } satisfies WorkerMessage };
    const extracted = await connection.extractStatements(sql);
    if (extracted.count !== 1) throw new SqlRefusedError('several_statements', 'only one statement is allowed');
    const prepared = await extracted.prepare(0);
    if (prepared.statementType !== StatementType.SELECT) throw new SqlRefusedError('statement_type', 'only SELECT statements are allowed');
    if (prepared.parameterCount > 0)
      throw new SqlRefusedError('parameter', 'parameters ($1, ?) are not supported; write the values into the query');
    return { prepared };
  }

  /**
   * COPY of the checked SELECT to `target`. The query's own text goes inside the parentheses on lines
   * of its own (a valid SELECT has balanced parentheses and closed quotes and comments, and a line
   * comment ends at the line break), without trailing semicolons; when that does not parse (a comment
   * after the semicolon), DuckDB's own rendering of the parse the guard checked is used instead.
   */
  async function copyStatement(sql: string, target: string) {
    const rendered = async () =>
      String(
        (await connection.runAndReadAll('SELECT json_deserialize_sql(json_serialize_sql($1::VARCHAR))', [sql])).getRowsJS()[0]?.[0] ?? '',
      );
    for (const form of [async () => sql.replace(/[\s;]+$/, ''), rendered]) {
      try {
        const extracted = await connection.extractStatements(`COPY (\n${await form()}\n) TO ${literal(target)} (FORMAT parquet)`);
        if (extracted.count !== 1) continue;
        const prepared = await extracted.prepare(0);
        if (prepared.statementType === StatementType.COPY) return prepared;
      } catch {
        // the next form
      }
    }
    throw new SqlRefusedError('export_form', 'this query cannot be written to a file as it is; remove comments after its last semicolon');
  }

  /** Files may only be written in the warehouse's exports folder. */
  const exportsDir = path.join(root, 'exports') + path.sep;
  const insideExports = (file: string) => path.resolve(file).startsWith(exportsDir);

  async function exportRows(request: ExportRequest): Promise<WorkerMessage> {
    const { id, sql } = request;
    const timer = setTimeout(() => connection.interrupt(), request.timeoutMs);
    try {
      if (!insideExports(request.parquetPath) || !insideExports(request.csvPath))
        throw new Error('export paths must lie in the exports folder');
      const { failed } = await checked(id, sql);
      if (failed) return failed;
      const copy = await copyStatement(sql, request.parquetPath);
      // Both files share the export's byte budget: the Parquet file may use all of it, the CSV what is left.
      limitFileSize(request.maxBytes);
      const written = await copy.run();
      const parquetBytes = fs.statSync(request.parquetPath).size;
      if (parquetBytes >= request.maxBytes) return { type: 'over-budget', id, maxBytes: request.maxBytes };
      limitFileSize(request.maxBytes - parquetBytes);
      // The CSV is written from the Parquet file: the same rows in the same order, the query run once.
      await copyParquetToCsv(connection, request.parquetPath, request.csvPath);
      return { type: 'exported', id, rows: Number(written.rowsChanged) };
    } catch (error) {
      if (error instanceof SqlRefusedError) return { type: 'refused', id, reason: error.reason, detail: error.detail };
      const detail = error instanceof Error ? error.message : String(error);
      if (isFileTooLarge(detail)) return { type: 'over-budget', id, maxBytes: request.maxBytes };
      return { type: 'failed', id, detail };
    } finally {
      clearTimeout(timer);
      limitFileSize('unlimited');
    }
  }

  async function run(request: RunRequest): Promise<WorkerMessage> {
    const { id, sql } = request;
    // The service kills this process a little later if the engine does not notice the interrupt.
    const timer = setTimeout(() => connection.interrupt(), request.timeoutMs);
    try {
      const { failed, prepared } = await checked(id, sql);
      if (failed) return failed;
      const result = await prepared.stream();
      const columns = result.deduplicatedColumnNames();
      const refusal = whyUnanswerable(columns, result.columnTypes());
      if (refusal) return { type: 'unanswerable', id, ...refusal };
      const rows: JsonRow[] = [];
      let bytes = 2;
      let truncated: TruncatedReason | null = null;
      reading: for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        for (const row of chunkRows(chunk, columns)) {
          if (rows.length === request.rowCap) {
            truncated = 'rows';
            break reading;
          }
          const size = Buffer.byteLength(JSON.stringify(row)) + 1;
          if (bytes + size > request.byteCap) {
            truncated = 'bytes';
            break reading;
          }
          rows.push(row);
          bytes += size;
        }
      }
      return { type: 'result', id, columns, rows, truncated, bytes };
    } catch (error) {
      if (error instanceof SqlRefusedError) return { type: 'refused', id, reason: error.reason, detail: error.detail };
      // The type check above keeps result values shallow; a value nested deep inside a VARIANT, or
      // a query nested deep in its text, can still overflow the stack while it is read or checked.
      if (isStackOverflow(error)) return { type: 'unanswerable', id, ...TOO_DEEP };
      return { type: 'failed', id, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  let queue = Promise.resolve();
  process.on('message', (message: WorkerRequest) => {
    if (message?.type === 'run') queue = queue.then(async () => send(await run(message)));
    else if (message?.type === 'export') queue = queue.then(async () => send(await exportRows(message)));
  });
  await send({ type: 'ready' });
}

// The service's end of the channel closing means the service is gone: so is this process.
process.on('disconnect', () => process.exit(0));
start(JSON.parse(process.argv[2] ?? '{}') as WorkerSettings).catch(async (error: unknown) => {
  await send({ type: 'start-failed', detail: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
