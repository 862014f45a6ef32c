// Large HMDA results as files, through the real faces: a query_hmda result over the answer budget
// arrives (through the budget-checked MCP client) as its first rows plus resource links whose CSV and
// Parquet files hold every row (more than the 10,000-row inline cap), checked against the source file
// with a reader written here; downloads need a key, resume with Range/If-Range, answer 416 past the
// end and 404 once expired; the same question finds the same files; REST answers the same contract.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { literal } from '../../api/hmda/duck.ts';
import { z } from 'zod';
import { PRESET_NAMES } from '../../api/hmda/codes.ts';
import {
  HMDA_ANSWER_BUDGET_BYTES,
  HMDA_EXPORT_TTL_HOURS,
  HmdaAnswerSchema,
  HmdaQuerySchema,
  type HmdaAnswer,
} from '../../api/hmda/contract.ts';
import { larColumn } from '../../api/hmda/schema.ts';
import { createHmdaService } from '../../api/hmda/service.ts';
import { SQL_ROW_CAP } from '../../api/hmda/service.ts';
import { TOOL_RESULT_BUDGET_BYTES, toolResultBytes } from '../../api/mcp/result-budget.ts';
import { publishedOutputSchema } from '../../api/mcp/tool-schemas.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { checkToolResultBudget, connectMcp, resultText } from '../support/mcp-client.ts';
import { hasSourceData } from '../support/source-data.ts';
import { hmdaServiceSettings, parseCsv, silentLogger, SLICE_99_CSV, sliceWarehouse, tempDir, withConnection } from './hmda-fixtures.ts';

/** A source cell as the export should hold it: NA/Exempt/empty are empty (NULL), numbers compare as numbers. */
function normalised(name: string, cell: string): string | number | null {
  if (cell === 'NA' || cell === 'Exempt' || cell === '') return null;
  return larColumn(name)?.type === 'VARCHAR' ? cell : Number(cell);
}

const countBy = (values: string[]) =>
  values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});

describe.skipIf(!hasSourceData)('HMDA results over the budget, as files', () => {
  let root: string;
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let keyed: Client;
  let key: string;
  const source = hasSourceData ? parseCsv(fs.readFileSync(SLICE_99_CSV, 'utf8')) : { header: [], rows: [] };
  // The Data Browser export heads the combined LTV column `loan_to_value_ratio`; the warehouse keeps the dictionary's name.
  const names = source.header
    .map((name) => name.toLowerCase().replace(/-/g, '_'))
    .map((name) => (name === 'loan_to_value_ratio' ? 'combined_loan_to_value_ratio' : name));

  /** An export URL on this test server (answers name BASE_URL's host). */
  const local = (url: string) => `${server.url}${new URL(url).pathname}`;
  const download = (url: string, headers: Record<string, string> = {}) => fetch(local(url), { headers: { 'X-API-Key': key, ...headers } });

  const callHmda = async (args: Record<string, unknown>) => {
    const result = (await keyed.callTool({ name: 'query_hmda', arguments: args })) as CallToolResult;
    return { result, answer: result.structuredContent as HmdaAnswer, text: resultText(result) };
  };

  let parent: string;
  beforeAll(async () => {
    // Inside a dot-folder, as the default DATA_DIR (./.data) puts the warehouse.
    parent = tempDir('hmda-exports');
    root = path.join(parent, '.data', 'hmda');
    await sliceWarehouse(root);
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, { env: { HMDA_DIR: root } });
    server = await listen(testApp.app);
    const account = await testApp.deps.services.access.keys.findOrCreateAccountByEmail('hmda-exports@example.org');
    ({ key } = await testApp.deps.services.access.keys.createKey(account.id, 'hmda exports test'));
    keyed = await connectMcp(server.url, { 'X-API-Key': key });
  }, 120_000);

  afterAll(async () => {
    await keyed?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
    if (parent) fs.rmSync(parent, { recursive: true, force: true });
  });

  it('answers a result over the budget with its first rows and resource links to files of every row', async () => {
    const { result, answer, text } = await callHmda({ sql: 'SELECT * FROM lar' });
    expect(result.isError).toBeFalsy();
    // The whole result as JSON is far over the budget; the answer is not.
    expect(source.rows.length * 1500).toBeGreaterThan(TOOL_RESULT_BUDGET_BYTES);
    expect(toolResultBytes(result)).toBeLessThanOrEqual(TOOL_RESULT_BUDGET_BYTES);
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(HMDA_ANSWER_BUDGET_BYTES);
    expect(HmdaAnswerSchema.parse(answer)).toEqual(answer);
    expect(answer).toMatchObject({ kind: 'sql', complete: false, row_count: source.rows.length, partial: true });
    expect(answer.rows.length).toBeGreaterThan(0);
    expect(answer.rows.length).toBeLessThanOrEqual(20);
    expect(answer.columns.slice(0, names.length)).toEqual(names);
    expect(answer.columns.slice(names.length).sort()).toEqual(['state', 'year']);
    expect(text).toContain(`${source.rows.length.toLocaleString('en-US')} rows`);

    const exported = answer.export!;
    expect(exported.rows).toBe(source.rows.length);
    expect(Date.parse(exported.expires_at) - Date.parse(exported.created_at)).toBe(HMDA_EXPORT_TTL_HOURS * 3_600_000);
    const links = result.content.filter((block) => block.type === 'resource_link');
    expect(links).toEqual([
      expect.objectContaining({ uri: exported.csv_url, mimeType: 'text/csv', size: exported.csv_bytes }),
      expect.objectContaining({ uri: exported.parquet_url, mimeType: 'application/vnd.apache.parquet', size: exported.parquet_bytes }),
    ]);

    // The CSV holds every row of the source file, value for value.
    const response = await download(exported.csv_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    const csv = parseCsv(await response.text());
    expect(csv.header).toEqual(answer.columns);
    expect(csv.rows.every((row) => row[names.indexOf('combined_loan_to_value_ratio')] !== '')).toBe(false);
    expect(csv.rows.some((row) => row[names.indexOf('combined_loan_to_value_ratio')] !== '')).toBe(true);
    expect(csv.rows).toHaveLength(source.rows.length);
    const fromSource = source.rows.map((row) => JSON.stringify(names.map((name, index) => normalised(name, row[index] ?? '')))).sort();
    const fromExport = csv.rows.map((row) => JSON.stringify(names.map((name, index) => normalised(name, row[index] ?? '')))).sort();
    expect(fromExport).toEqual(fromSource);
    // The first rows shown are the file's first rows.
    expect(answer.rows[0]?.lei).toBe(csv.rows[0]?.[names.indexOf('lei')]);
  });

  it('exports every row beyond the 10,000-row inline cap, the same rows in CSV and Parquet', async () => {
    const copies = 6;
    const { answer } = await callHmda({
      sql: `SELECT l.lei, l.action_taken, l.loan_amount, r.range AS copy FROM lar l, range(${copies}) r ORDER BY copy, l.lei, l.loan_amount`,
    });
    const total = source.rows.length * copies;
    expect(total).toBeGreaterThan(SQL_ROW_CAP);
    expect(answer).toMatchObject({ complete: false, row_count: total });

    const csv = parseCsv(await (await download(answer.export!.csv_url)).text());
    expect(csv.rows).toHaveLength(total);
    const action = source.header.indexOf('action_taken');
    const expected = Object.fromEntries(
      Object.entries(countBy(source.rows.map((row) => row[action] ?? ''))).map(([code, n]) => [code, n * copies]),
    );
    expect(countBy(csv.rows.map((row) => row[1] ?? ''))).toEqual(expected);

    const parquet = path.join(root, 'downloaded.parquet');
    fs.writeFileSync(parquet, Buffer.from(await (await download(answer.export!.parquet_url)).arrayBuffer()));
    const fromParquet = await withConnection(async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT CAST(action_taken AS VARCHAR), count(*) FROM read_parquet(${literal(parquet)}) GROUP BY 1`,
      );
      return Object.fromEntries(reader.getRowsJS().map(([code, n]) => [String(code), Number(n)]));
    });
    expect(fromParquet).toEqual(expected);
  });

  it('writes a question once: asked again, it names the same files', async () => {
    const first = (await callHmda({ sql: 'SELECT * FROM lar' })).answer.export!;
    const again = (await callHmda({ sql: 'SELECT * FROM lar' })).answer.export!;
    expect(again.id).toBe(first.id);
    expect(again.created_at).toBe(first.created_at);
    expect(again.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('serves byte ranges, and an interrupted download resumes where it stopped', async () => {
    const exported = (await callHmda({ sql: 'SELECT * FROM lar' })).answer.export!;
    const whole = Buffer.from(await (await download(exported.csv_url)).arrayBuffer());
    expect(whole.length).toBe(exported.csv_bytes);

    const ranged = await download(exported.csv_url, { Range: 'bytes=0-99' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${whole.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(0, 100))).toBe(true);

    // A download that stops part-way: read some chunks, then drop the connection.
    const controller = new AbortController();
    const first = await download(exported.csv_url);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const received: Buffer[] = [];
    let got = 0;
    const reader = first.body!.getReader();
    while (got < whole.length / 3) {
      const { value, done } = await reader.read();
      if (done) break;
      received.push(Buffer.from(value));
      got += value.length;
    }
    controller.abort();
    await reader.cancel();
    const partial = Buffer.concat(received);
    expect(partial.length).toBeLessThan(whole.length);

    const rest = await download(exported.csv_url, { Range: `bytes=${partial.length}-`, 'If-Range': etag });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes ${partial.length}-${whole.length - 1}/${whole.length}`);
    const resumed = Buffer.concat([partial, Buffer.from(await rest.arrayBuffer())]);
    expect(resumed.equals(whole)).toBe(true);

    // If-Range with another validator: the whole file again, not a wrong splice.
    const stale = await download(exported.csv_url, { Range: `bytes=${partial.length}-`, 'If-Range': '"some-other-version"' });
    expect(stale.status).toBe(200);
    expect(Buffer.from(await stale.arrayBuffer()).equals(whole)).toBe(true);

    const beyond = await download(exported.csv_url, { Range: `bytes=${whole.length + 10}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    expect(await beyond.json()).toMatchObject({ status: 416, error: expect.stringContaining('past the end') });
  });

  it('needs a key to download, refuses malformed names, and forgets an export once it expires', async () => {
    const exported = (await callHmda({ sql: 'SELECT * FROM lar' })).answer.export!;
    const anonymous = await fetch(local(exported.csv_url));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ status: 401, error: expect.stringContaining('API key') });
    expect((await fetch(local(exported.csv_url), { headers: { 'X-API-Key': 'mds_live_notarealkey000000000000000000' } })).status).toBe(401);

    const malformed = await download(`${server.url}/api/v1/hmda/exports/..%2Fmanifest.json`);
    expect(malformed.status).toBe(400);
    const unknown = await download(`${server.url}/api/v1/hmda/exports/${'0'.repeat(64)}.csv`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toContain(`${HMDA_EXPORT_TTL_HOURS} hours`);

    // Expired: its record says so; the download is gone and a sweep deletes the files.
    const exportsDir = path.join(root, 'exports');
    const recordFile = path.join(exportsDir, `${exported.id}.json`);
    const record = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as { expiresAt: string };
    fs.writeFileSync(recordFile, JSON.stringify({ ...record, expiresAt: new Date(Date.now() - 1000).toISOString() }));
    expect((await download(exported.csv_url)).status).toBe(404);
    await testApp.deps.services.hmda.exports.sweep();
    expect(fs.readdirSync(exportsDir).filter((name) => name.startsWith(exported.id))).toEqual([]);
    // Asked again, the question is written anew.
    const renewed = (await callHmda({ sql: 'SELECT * FROM lar' })).answer.export!;
    expect(renewed.id).toBe(exported.id);
    expect((await download(renewed.csv_url)).status).toBe(200);
  });

  it('answers the same contract on REST, with the key', async () => {
    const post = (body: unknown, headers: Record<string, string> = { 'X-API-Key': key }) =>
      fetch(`${server.url}/api/v1/hmda/sql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const big = await post({ sql: 'SELECT * FROM lar' });
    expect(big.status).toBe(200);
    const answer = HmdaAnswerSchema.parse(await big.json());
    expect(answer).toMatchObject({ complete: false, row_count: source.rows.length });
    expect(answer.export?.csv_url).toMatch(/\/api\/v1\/hmda\/exports\/[0-9a-f]{64}\.csv$/);

    const small = HmdaAnswerSchema.parse(
      await (await post({ sql: 'SELECT action_taken, count(*) AS n FROM lar GROUP BY 1 ORDER BY 1' })).json(),
    );
    const action = source.header.indexOf('action_taken');
    expect(small).toMatchObject({ complete: true, export: null });
    expect(Object.fromEntries(small.rows.map((row) => [String(row.action_taken), row.n]))).toEqual(
      countBy(source.rows.map((row) => row[action] ?? '')),
    );

    expect((await post({ sql: 'SELECT 1' }, {})).status).toBe(401);
    const unknownField = await post({ sql: 'SELECT 1', year: 2020 });
    expect(unknownField.status).toBe(400);
    expect(((await unknownField.json()) as { error: string }).error).toContain("Unknown parameter 'year'");

    const preset = await fetch(`${server.url}/api/v1/hmda/presets/approvals?year=2020&state=california&loan_type=FHA`, {
      headers: { 'X-API-Key': key },
    });
    expect(preset.status).toBe(200);
    expect(await preset.json()).toMatchObject({
      kind: 'preset',
      preset: 'approvals',
      complete: true,
      filters: { year: 2020, state: 'CA', loan_type: 2 },
    });
    const misplaced = await fetch(`${server.url}/api/v1/hmda/presets/rates?by=race`, { headers: { 'X-API-Key': key } });
    expect(misplaced.status).toBe(400);
    expect((await fetch(`${server.url}/api/v1/hmda/presets/rates?year=2020`)).status).toBe(401);
  });

  it('declares one schema on every face, and natural variants get the canonical answer', async () => {
    const withoutDialect = (schema: unknown) => {
      const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
      return rest;
    };
    type Operation = {
      parameters?: { name: string; in: string; required: boolean }[];
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    };
    const openapi = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const expected = withoutDialect(z.toJSONSchema(HmdaAnswerSchema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }));
    for (const preset of PRESET_NAMES)
      expect(openapi.paths[`/hmda/presets/${preset}`]?.get?.responses['200']?.content?.['application/json']?.schema).toEqual(expected);
    expect(openapi.paths['/hmda/sql']?.post?.responses['200']?.content?.['application/json']?.schema).toEqual(expected);
    expect(openapi.paths['/hmda/exports/{file}']?.get?.parameters).toEqual([
      expect.objectContaining({ name: 'file', in: 'path', required: true }),
    ]);
    expect(Object.keys(openapi.paths['/hmda/exports/{file}']?.get?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '206', '404', '416']),
    );
    const tool = (await keyed.listTools()).tools.find((candidate) => candidate.name === 'query_hmda');
    expect(tool?.outputSchema).toEqual(publishedOutputSchema(HmdaAnswerSchema));

    const canonical = (await callHmda({ preset: 'approvals', year: 2020, state: 'CA', loan_type: 'fha' })).answer;
    expect(canonical).toMatchObject({ complete: true, filters: { year: 2020, state: 'CA', loan_type: 2 } });
    for (const variant of [
      { preset: 'Approvals', year: '2020', state: 'california', loan_type: 'FHA' },
      { preset: 'APPROVALS', year: 2020, state: ' ca ', loan_type: 2 },
    ]) {
      const viaMcp = await callHmda(variant);
      expect(viaMcp.result.isError, viaMcp.text).toBeFalsy();
      expect(viaMcp.answer).toEqual(canonical);
    }
    const viaRest = await fetch(`${server.url}/api/v1/hmda/presets/approvals?year=2020&state=California&loan_type=FHA`, {
      headers: { 'X-API-Key': key },
    });
    expect(await viaRest.json()).toEqual(canonical);

    const unknown = await callHmda({ preset: 'rates', credit_score: 700 });
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toContain(`Unknown argument 'credit_score'. Known arguments: ${Object.keys(HmdaQuerySchema.shape).join(', ')}.`);
    const both = await callHmda({ preset: 'rates', sql: 'SELECT 1' });
    expect(both.text).toBe("Give exactly one of 'preset' (rates, approvals, denials, demographics, lender_rankings) or 'sql'.");
    const filtered = await callHmda({ sql: 'SELECT 1', state: 'CO' });
    expect(filtered.text).toMatch(/^The filters 'state' apply to presets; with 'sql', write them into the query/);
  });

  it('exports a preset over the budget through the trusted engine, with its bound filters', async () => {
    const service = createHmdaService({ ...hmdaServiceSettings(root), logger: silentLogger, answerBudgetBytes: 600 });
    try {
      const answer = await service.answer({ preset: 'demographics', by: 'age', year: 2020, state: 'CA' });
      expect(answer).toMatchObject({ complete: false, params: [2020, 'CA'] });
      const csv = parseCsv(fs.readFileSync(path.join(root, 'exports', `${answer.export!.id}.csv`), 'utf8'));
      expect(csv.rows).toHaveLength(answer.row_count);
      const records = csv.header.indexOf('records');
      expect(csv.rows.reduce((total, row) => total + Number(row[records]), 0)).toBe(source.rows.length);
    } finally {
      await service.close();
    }
  });

  it('fails any test that receives a tool result over the budget', () => {
    const huge = { content: [{ type: 'text', text: 'x'.repeat(TOOL_RESULT_BUDGET_BYTES) }], structuredContent: { rows: [1] } };
    expect(() => checkToolResultBudget('query_hmda', huge)).toThrow(/over the 80,000-byte tool-result budget/);
    expect(() => checkToolResultBudget('query_hmda', { content: [{ type: 'text', text: 'small' }] })).not.toThrow();
  });
});
