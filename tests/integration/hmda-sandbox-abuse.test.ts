// Custom SQL that used to break the sandbox for everyone, on a loaded warehouse through the real
// REST face: a query that makes DuckDB fail an allocation (an INTERNAL error that invalidates the
// engine) is answered as a memory stop and the next key's `SELECT 1` is answered; dates and
// timestamps no JavaScript Date holds come back as strings; one key cannot hold every process or
// fill the line, nor can an account's keys together, an export of every row included.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, SqlFailedError, type Sandbox } from '../../api/hmda/sandbox.ts';
import { createHmdaService, SQL_BYTE_CAP, SQL_ROW_CAP } from '../../api/hmda/service.ts';
import { TooManyRequestsError } from '../../api/platform/errors.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { hasSourceData } from '../support/source-data.ts';
import { hmdaServiceSettings, silentLogger, sliceWarehouse, tempDir } from './hmda-fixtures.ts';

/**
 * Asks for a 2-billion-entry sample (16 GB): under the process's address-space limit DuckDB raises
 * "INTERNAL Error: Memory allocation failure" and invalidates its database (checked on DuckDB 1.5).
 */
const ALLOCATION_BOMB = 'SELECT reservoir_quantile(loan_amount, 0.5, 2000000000) AS q FROM lar';
/**
 * Its first 10,000 rows are cheap, so it is answered as an export of every row, and the rest run
 * for minutes (the query of issue 46).
 */
const CHEAP_THEN_SLOW =
  "SELECT x, CASE WHEN x < 50000 THEN 0 ELSE levenshtein(repeat('a',2000), repeat('b',2000)||x::VARCHAR) END FROM range(1000000) t(x)";
/** One scalar call per row that runs for minutes: holds a process until the deadline. */
const LONG_SCALAR = "SELECT levenshtein(repeat('a', 200000 + loan_type - loan_type), repeat('b', 200000)) AS d FROM lar";

describe.skipIf(!hasSourceData)('the custom SQL sandbox under abuse', () => {
  let root: string;
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const keys: string[] = [];

  const sql = (key: string, query: string) =>
    fetch(`${server.url}/api/v1/hmda/sql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify({ sql: query }),
    });

  beforeAll(async () => {
    root = tempDir('hmda-sandbox-abuse');
    await sliceWarehouse(root);
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, { env: { HMDA_DIR: root, HMDA_MEMORY_LIMIT: '512MB', HMDA_QUERY_TIMEOUT_MS: '5000' } });
    server = await listen(testApp.app);
    // abuser, bystander, and the abuser's second key
    for (const email of ['abuser@example.org', 'bystander@example.org', 'abuser@example.org']) {
      const account = await testApp.deps.services.access.keys.findOrCreateAccountByEmail(email);
      keys.push((await testApp.deps.services.access.keys.createKey(account.id, 'sandbox abuse test')).key);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('replaces a process whose engine an allocation failure invalidated, so the next key is answered', async () => {
    const [abuser, bystander] = keys as [string, string];
    const bomb = await sql(abuser, ALLOCATION_BOMB);
    const body = (await bomb.json()) as { error: string; status: number };
    expect(bomb.status).toBe(400);
    expect(body.error).toMatch(/more memory than the 512MB limit/);
    expect(body.error).not.toMatch(/INTERNAL|allocation|Stack/);
    // Queries one at a time take the first process: the one the bomb ran in, unless it was replaced.
    for (const key of [bystander, bystander, abuser]) {
      const answer = await sql(key, 'SELECT 1 AS one');
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
    }
  }, 60_000);

  it("gives an account's keys one share together, their exports within the time limit, so another account is served", async () => {
    const [abuser, bystander, abusersSecondKey] = keys as [string, string, string];
    const runaways = [abuser, abusersSecondKey].map((key) => sql(key, CHEAP_THEN_SLOW));
    // By now both questions have been sent and their first rows read; what is left is their exports.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const answer = await sql(bystander, 'SELECT 1 AS one');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
    // Each runaway is stopped at the query time limit, its export included (one after the other:
    // the account holds one process), never left to run the minute an export once had.
    for (const response of await Promise.all(runaways)) {
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/longer than the 5000 ms limit/);
    }
  }, 90_000);

  it('answers a value nested deeper than an answer holds with a 400, and one that crashes the engine too, the next query served', async () => {
    // Its own service with a longer time limit: planning a type 3,000 levels deep takes seconds on a busy machine.
    const service = createHmdaService({ ...hmdaServiceSettings(root, { HMDA_QUERY_TIMEOUT_MS: '60000' }), logger: silentLogger });
    try {
      const nested = (depth: number) => `SELECT from_json('[1]', repeat('[',${depth})||'"INTEGER"'||repeat(']',${depth})) AS v`;
      const refusal = (depth: number) =>
        service.answer({ sql: nested(depth) }, { keyId: 'deep' }).then(
          () => undefined,
          (error: unknown) => error,
        );
      const deep = await refusal(3000);
      expect(deep).toBeInstanceOf(SqlFailedError);
      expect((deep as SqlFailedError).status).toBe(400);
      expect((deep as Error).message).toMatch(/column "v" nests lists, structs or maps more than 64 levels deep.*CAST/);
      // 100,000 levels: DuckDB's binder dies of SIGSEGV in the process; the caller is told, the process replaced.
      const crash = await refusal(100_000);
      expect(crash).toBeInstanceOf(SqlFailedError);
      expect((crash as Error).message).toMatch(/engine crashed on it.*replaced/);
      expect((await service.answer({ sql: 'SELECT 1 AS one' }, { keyId: 'next' })).rows).toEqual([{ one: 1 }]);
    } finally {
      await service.close();
    }
  }, 120_000);

  it('keeps columns and struct fields named __proto__ or constructor, and tells NaN and infinities from NULL', async () => {
    const answer = await sql(
      keys[1]!,
      "SELECT 1 AS a, {'x':1} AS __proto__, 2 AS constructor, 3 AS \"toString\", {'__proto__':{'p':1},'b':2} AS s, " +
        "{'__proto__': 5, 'hasOwnProperty': 6} AS t, 'NaN'::DOUBLE AS n, 'inf'::DOUBLE AS i, '-inf'::FLOAT AS f, NULL::DOUBLE AS z, " +
        "['nan'::DOUBLE, 1.5] AS l, MAP {'k': 'inf'::DOUBLE} AS m",
    );
    expect(answer.status).toBe(200);
    // Compared as text: an object literal with a __proto__ key would set a prototype, not a field.
    const body = (await answer.json()) as { rows: unknown[] };
    expect(JSON.stringify(body.rows)).toBe(
      '[{"a":1,"__proto__":{"x":1},"constructor":2,"toString":3,"s":{"__proto__":{"p":1},"b":2},"t":{"__proto__":5,"hasOwnProperty":6},' +
        '"n":"NaN","i":"Infinity","f":"-Infinity","z":null,"l":["NaN",1.5],"m":[{"key":"k","value":"Infinity"}]}]',
    );
  });

  it('writes NaN and infinities into an export the way answers give them', async () => {
    const key = keys[1]!;
    const answer = await sql(
      key,
      "SELECT x, CASE x WHEN 0 THEN 'NaN'::DOUBLE WHEN 1 THEN 'inf'::DOUBLE WHEN 2 THEN '-inf'::DOUBLE WHEN 3 THEN NULL ELSE x END AS v " +
        'FROM range(20000) t(x) ORDER BY x',
    );
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { complete: boolean; rows: unknown[]; export: { csv_url: string } };
    expect(body.complete).toBe(false);
    expect(body.rows.slice(0, 5)).toEqual([
      { x: 0, v: 'NaN' },
      { x: 1, v: 'Infinity' },
      { x: 2, v: '-Infinity' },
      { x: 3, v: null },
      { x: 4, v: 4 },
    ]);
    const csv = await fetch(`${server.url}${new URL(body.export.csv_url).pathname}`, { headers: { 'X-API-Key': key } });
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\n').slice(0, 6)).toEqual(['x,v', '0,NaN', '1,Infinity', '2,-Infinity', '3,', '4,4.0']);
  });

  it('answers dates and timestamps outside what JavaScript can hold as strings', async () => {
    const answer = await sql(
      keys[1]!,
      "SELECT 'infinity'::TIMESTAMP AS t, '-infinity'::DATE AS d, 'infinity'::TIMESTAMP_NS AS ns, '290000-01-01 12:00:00'::TIMESTAMP AS far, " +
        "'0044-03-15 (BC)'::DATE AS bc, '1000000-01-01'::DATE AS million, ['infinity'::TIMESTAMPTZ] AS list, '2020-06-01'::DATE AS plain",
    );
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { rows: unknown[] }).rows).toEqual([
      {
        t: 'infinity',
        d: '-infinity',
        ns: 'infinity',
        far: '+290000-01-01T12:00:00.000Z',
        bc: '-000043-03-15T00:00:00.000Z',
        million: '+1000000-01-01T00:00:00.000Z',
        list: ['infinity'],
        plain: '2020-06-01T00:00:00.000Z',
      },
    ]);
  });

  describe('fair shares', () => {
    let sandbox: Sandbox;
    beforeAll(() => {
      sandbox = createSandbox({
        root,
        threads: 1,
        memoryLimit: '256MB',
        timeoutMs: 2000,
        rowCap: SQL_ROW_CAP,
        byteCap: SQL_BYTE_CAP,
        logger: silentLogger,
        concurrency: 2,
        queueLimit: 4,
      });
    });
    afterAll(() => sandbox?.close());

    it('keeps a process for other keys while one key floods, and refuses its queries past its share of the line', async () => {
      const settled = (promise: Promise<unknown>) =>
        promise.then(
          () => 'answered',
          (error: unknown) => error,
        );
      let firstDone = false;
      const first = settled(sandbox.run(LONG_SCALAR, { keyId: 'flood' })).finally(() => (firstDone = true));
      const second = settled(sandbox.run(LONG_SCALAR, { keyId: 'flood' }));
      // queueLimit 4 gives a key one place in line: the second query waits there, the third is refused.
      const third = await settled(sandbox.run(LONG_SCALAR, { keyId: 'flood' }));
      expect(third).toBeInstanceOf(TooManyRequestsError);
      // The flooding key holds one process; the other serves this key while the first query still runs.
      const other = await sandbox.run('SELECT 1 AS one', { keyId: 'other' });
      expect(other.rows).toEqual([{ one: 1 }]);
      expect(firstDone).toBe(false);
      await Promise.all([first, second]);
    }, 60_000);
  });
});
