// Hostile custom SQL against a loaded warehouse (the real 99-column 2020 CA slice): every attack in
// tests/fixtures/hmda-sql-attacks.txt refused with nothing of the engine's settings, paths or error
// text in the answer; planning-time and scalar work stopped at the deadline by killing the process
// that ran it, while a benign query issued meanwhile is answered; memory bombs stopped without the
// service growing; wide rows cut by bytes; every refusal and stop logged with key id and reason.
import fs from 'node:fs';
import os from 'node:os';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox, SqlFailedError, SqlStoppedError } from '../../api/hmda/sandbox.ts';
import { createHmdaService, SQL_BYTE_CAP, SQL_ROW_CAP, type HmdaService } from '../../api/hmda/service.ts';
import { SqlRefusedError } from '../../api/hmda/sql-guard.ts';
import { BadRequestError } from '../../api/platform/errors.ts';
import { hasSourceData } from '../support/source-data.ts';
import { attackQueries, hmdaServiceSettings, parseCsv, SLICE_99_CSV, sliceWarehouse, tempDir } from './hmda-fixtures.ts';

const KEY_ID = 'key-7f3a';
const TIMEOUT_MS = 3000;
/** Folded while the statement is prepared: no chunk boundary, so the engine's interrupt never lands. */
const PLANNING_BOMB = "SELECT levenshtein(repeat('a', 200000), repeat('b', 200000)) AS d";
/** One scalar call per row that runs for minutes. */
const LONG_SCALAR = "SELECT levenshtein(repeat('a', 200000 + loan_type - loan_type), repeat('b', 200000)) AS d FROM lar";

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe.skipIf(!hasSourceData)('the custom SQL sandbox on a loaded warehouse', () => {
  let root: string;
  let service: HmdaService;
  const logLines: Record<string, unknown>[] = [];
  const csv = hasSourceData ? parseCsv(fs.readFileSync(SLICE_99_CSV, 'utf8')) : { header: [], rows: [] };
  const column = (name: string) => csv.header.indexOf(name);
  const sql = (query: string) => service.sql(query, { keyId: KEY_ID });

  beforeAll(async () => {
    root = tempDir('hmda-sandbox');
    await sliceWarehouse(root);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim() !== '') logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    service = createHmdaService({
      ...hmdaServiceSettings(root, { HMDA_QUERY_TIMEOUT_MS: String(TIMEOUT_MS), HMDA_MEMORY_LIMIT: '512MB' }),
      logger,
    });
  });
  afterAll(async () => {
    await service?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers SELECTs over the real records, PIVOT with its values listed included', async () => {
    const byLender = await sql('SELECT lei, count(*) AS n FROM lar GROUP BY lei ORDER BY n DESC');
    expect(byLender.rows).toEqual([
      { lei: '549300UL36AJZ0WZ4U93', n: 1825 },
      { lei: '549300QSUEE20YO86W39', n: 160 },
    ]);
    const pivot = await sql('PIVOT lar ON loan_type IN (1, 2, 3, 4) USING count(*) GROUP BY action_taken ORDER BY action_taken');
    const expected = new Map<string, Record<string, number>>();
    for (const row of csv.rows) {
      const cells = expected.get(row[column('action_taken')]!) ?? { 1: 0, 2: 0, 3: 0, 4: 0 };
      cells[row[column('loan_type')]!] = (cells[row[column('loan_type')]!] ?? 0) + 1;
      expected.set(row[column('action_taken')]!, cells);
    }
    expect(pivot.rows).toEqual(
      [...expected.entries()]
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([action, cells]) => ({ action_taken: Number(action), ...cells })),
    );
    const refused = await failure(sql('PIVOT lar ON loan_type USING count(*)'));
    expect(refused).toBeInstanceOf(SqlRefusedError);
    expect((refused as SqlRefusedError).reason).toBe('pivot_without_in');
  });

  it('refuses every attack in the fixture, leaking no setting, path or engine text', async () => {
    const attacks = attackQueries();
    expect(attacks.length).toBeGreaterThan(120);
    const secrets = [root, os.homedir(), 'Binder Error', 'Catalog Error', 'Candidate', 'LINE 1', 'read_parquet(', 'memory_limit='];
    for (const attack of attacks) {
      const error = await failure(sql(attack));
      expect(error, `not refused: ${JSON.stringify(attack)}`).toBeInstanceOf(BadRequestError);
      for (const secret of secrets) {
        if (!attack.includes(secret)) expect((error as Error).message, attack).not.toContain(secret);
      }
    }
    expect((await sql('SELECT count(*) AS n FROM lar')).rows).toEqual([{ n: csv.rows.length }]);
    expect(fs.existsSync('/tmp/out.csv') || fs.existsSync('/tmp/x.csv') || fs.existsSync('/tmp/dump')).toBe(false);
  });

  it('stops planning-time and scalar runaways at the deadline while a benign query is answered', async () => {
    // Both query slots are taken by runaways; the benign query waits for one and is answered.
    const runaways = [failure(sql(PLANNING_BOMB)), failure(sql(LONG_SCALAR))];
    const benign = sql('SELECT count(*) AS n FROM lar');
    const [planning, scalar] = await Promise.all(runaways);
    for (const stopped of [planning, scalar]) {
      expect(stopped).toBeInstanceOf(SqlStoppedError);
      expect((stopped as SqlStoppedError).reason).toBe('timeout');
      expect((stopped as Error).message).toContain(`longer than the ${TIMEOUT_MS} ms limit`);
    }
    expect((await benign).rows).toEqual([{ n: csv.rows.length }]);
  });

  it('stops a runaway by killing the process that ran it, and serves the next query from a fresh one', async () => {
    const sandbox = createSandbox({
      root,
      threads: 1,
      memoryLimit: '256MB',
      timeoutMs: 1000,
      rowCap: 10,
      byteCap: 2 ** 20,
      logger: pino({ level: 'silent' }),
      concurrency: 1,
    });
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      await sandbox.run('SELECT 1');
      const [first] = sandbox.pids();
      expect(first).toBeDefined();
      const stopped = await failure(sandbox.run(PLANNING_BOMB));
      expect((stopped as SqlStoppedError).reason).toBe('timeout');
      expect(alive(first!)).toBe(false);
      expect((await sandbox.run('SELECT 42 AS n')).rows).toEqual([{ n: 42 }]);
      expect(sandbox.pids()).not.toContain(first);
    } finally {
      sandbox.close();
    }
  });

  it('stops a range cross join at the deadline', async () => {
    const stopped = await failure(sql('SELECT count(*) FROM range(1000000000) a, range(1000) b'));
    expect((stopped as SqlStoppedError).reason).toBe('timeout');
  });

  it('stops memory bombs, folded or run, without the service growing', async () => {
    const before = process.memoryUsage().rss;
    for (const bomb of [
      "SELECT length(repeat(repeat('x', 1000000), 3000)) AS n",
      'SELECT length(range(1000000000)) AS n',
      "SELECT length(string_agg(repeat('y', 1000), '')) AS n FROM range(3000000)",
    ]) {
      const stopped = await failure(sql(bomb));
      expect(stopped, bomb).toBeInstanceOf(SqlStoppedError);
      expect((stopped as SqlStoppedError).reason, bomb).toBe('memory');
      expect((stopped as Error).message).toContain('more memory than the 512MB limit');
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 2 ** 20);
    expect((await sql('SELECT count(*) AS n FROM lar')).rows).toEqual([{ n: csv.rows.length }]);
  });

  // Widths a real row can have, so the rows outrun the byte cap before the row cap. (DuckDB works
  // in vectors of 2,048 rows, so 60 KB rows make 120 MB vectors that the memory cap may stop first.)
  it.each([1_000, 4_000])('cuts 10,000 rows of %i bytes at the byte cap and says so', async (width) => {
    const result = await sql(`SELECT range AS i, repeat('x', ${width}) AS filler FROM range(10000)`);
    expect(result.truncated).toBe(true);
    expect(result.truncated_reason).toBe('bytes');
    expect(result.rows.length).toBeGreaterThan(100);
    expect(result.rows.length).toBeLessThan(SQL_BYTE_CAP / width + 1);
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(SQL_BYTE_CAP);
    expect(result.rows.at(-1)).toEqual({ i: result.rows.length - 1, filler: 'x'.repeat(width) });
  });

  it(`cuts at ${SQL_ROW_CAP} rows and says so`, async () => {
    const result = await sql('SELECT * FROM range(25000)');
    expect(result.rows).toHaveLength(SQL_ROW_CAP);
    expect(result).toMatchObject({ truncated: true, truncated_reason: 'rows' });
    expect((await sql('SELECT 1 AS one')).truncated_reason).toBeNull();
  });

  it('answers engine errors in its own words', async () => {
    const cases: [string, RegExp][] = [
      ['SELECT nosuch_column FROM lar', /^Custom SQL could not be run: column "nosuch_column" does not exist/],
      ['SELECT CAST(lei AS INTEGER) FROM lar', /^Custom SQL failed: a value could not be converted to INT32; use TRY_CAST/],
      ['SELECT loan_type, count(*) FROM lar', /must be in GROUP BY or inside an aggregate/],
      ['SELECT *\nFROM lar\nWHERE loan_type = = 1', /^Custom SQL could not be parsed: syntax error at or near "=" \(line 3\)/],
    ];
    for (const [query, expected] of cases) {
      const error = await failure(sql(query));
      expect(error, query).toBeInstanceOf(SqlFailedError);
      expect((error as Error).message).toMatch(expected);
      expect((error as Error).message).not.toMatch(/Error:|Candidate|549300|\^/);
    }
  });

  it('logged every refused and stopped query with the key id, reason and duration', () => {
    const refused = logLines.filter((line) => line.msg === 'HMDA custom SQL refused');
    const stopped = logLines.filter((line) => line.msg === 'HMDA custom SQL stopped');
    expect(refused.length).toBeGreaterThanOrEqual(attackQueries().length - 10);
    expect(stopped.map((line) => line.reason).sort()).toEqual(['memory', 'memory', 'memory', 'timeout', 'timeout', 'timeout']);
    for (const line of [...refused, ...stopped]) {
      expect(line).toMatchObject({ keyId: KEY_ID, reason: expect.any(String), ms: expect.any(Number) });
    }
    expect(refused.find((line) => line.reason === 'pivot_without_in')).toBeDefined();
  });

  // Rows of 60 KB make DuckDB vectors of about 120 MB, so which cap bites first depends on how far the
  // engine has run ahead and how busy the machine is: either way the caller gets an answer within the
  // limits and the log says so (runs after the log check above, which counts the stops it expects).
  it('answers 10,000 rows of 60 KB within its limits: cut at the byte cap, or stopped and logged', async () => {
    const before = logLines.length;
    const outcome = await sql("SELECT range AS i, repeat('x', 60000) AS filler FROM range(10000)").catch((error: unknown) => error);
    if (outcome instanceof SqlStoppedError) {
      await vi.waitFor(() =>
        expect(logLines.slice(before).some((line) => line.msg === 'HMDA custom SQL stopped' && line.reason === outcome.reason)).toBe(true),
      );
    } else {
      const result = outcome as Awaited<ReturnType<typeof sql>>;
      expect(result).toMatchObject({ truncated: true, truncated_reason: 'bytes' });
      expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(SQL_BYTE_CAP);
    }
  });
});
