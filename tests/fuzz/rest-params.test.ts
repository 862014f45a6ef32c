// Property-based fuzzing of every REST operation the OpenAPI document declares: each query
// parameter (valid, almost valid, hostile, repeated) and each JSON body. A new route is covered
// the moment it is registered. Properties: no 5xx (a 503 only for a dataset that is not loaded),
// the service keeps answering, and no body carries a stack trace, a source path or SQL text.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { hasSourceData } from '../support/source-data.ts';
import { fieldValue, hostileJson, hostileString, leaks, objectArguments, stringsIn, validValue, type JsonSchema } from './arbitraries.ts';

// Datasets behind the data routes, so handlers run their real code paths, not just the 503.
const DATASETS = ['counties', 'loan_limits_conforming', 'loan_limits_fha', 'pmms', 'optimal_blue', 'economic_calendar', 'search_index'];
const RUNS = Number(process.env.FUZZ_RUNS ?? 80);

interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: string; schema: JsonSchema }[];
  body?: JsonSchema;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { parameters?: Operation['parameters']; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>
  >;
}

const asQueryValue = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
    : [typeof value === 'string' ? value : (JSON.stringify(value) ?? '')];

const safeParse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return [];
  }
};

async function check(response: Response, label: string, sent: unknown = []): Promise<void> {
  const text = await response.text();
  if (response.status >= 500) {
    // The only acceptable 5xx: a dataset not loaded in this test database, said as such.
    expect(response.status, `${label} → ${response.status} ${text.slice(0, 300)}`).toBe(503);
    expect(text, label).toMatch(/not loaded|not synced|retry/i);
    expect(response.headers.get('retry-after'), label).toMatch(/^\d+$/);
  }
  expect(leaks(text, stringsIn(sent)), `${label} leaked: ${text.slice(0, 500)}`).toBeUndefined();
}

describe.skipIf(!hasSourceData)('fuzzing every REST parameter and body from the OpenAPI document', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let operations: Operation[] = [];

  beforeAll(async () => {
    database = hasSourceData ? await syncedTestDatabase('postgres', DATASETS) : await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db);
    server = await listen(testApp.app);
    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        operations.push({
          method: method.toUpperCase(),
          path,
          parameters: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query'),
          body: operation.requestBody?.content['application/json']?.schema,
        });
      }
    }
  });
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('finds the operations to fuzz in the OpenAPI document', () => {
    expect(operations.map((operation) => `${operation.method} ${operation.path}`)).toEqual(
      expect.arrayContaining(['GET /rates', 'GET /loan-limits', 'GET /calendar', 'GET /escrow', 'POST /ask']),
    );
    operations = operations.filter((operation) => operation.path !== '/openapi.json');
  });

  it('answers every combination of query parameters without a 5xx or a leak', async () => {
    for (const operation of operations.filter((candidate) => candidate.parameters.length > 0)) {
      const valid: Record<string, fc.Arbitrary<unknown>> = {};
      const mixed: Record<string, fc.Arbitrary<unknown>> = {};
      for (const parameter of operation.parameters) {
        valid[parameter.name] = validValue(parameter.schema, 0, parameter.name);
        mixed[parameter.name] = fc.oneof(
          { weight: 5, arbitrary: fieldValue(parameter.schema) },
          // The same parameter twice (a 400 by the conventions).
          { weight: 1, arbitrary: fc.tuple(hostileString, hostileString) },
        );
      }
      const names = operation.parameters.map((parameter) => parameter.name);
      const validRecord = fc.record(valid, { requiredKeys: [] });
      // Half the runs fit the schema (the handlers' real paths), a third break exactly one parameter.
      const values = fc.oneof(
        { weight: 3, arbitrary: validRecord },
        {
          weight: 2,
          arbitrary: fc
            .tuple(validRecord, fc.constantFrom(...names), fc.oneof(hostileJson, fc.tuple(hostileString, hostileString)))
            .map(([record, name, bad]) => ({ ...record, [name]: bad })),
        },
        { weight: 1, arbitrary: fc.record(mixed, { requiredKeys: [] }) },
      );
      await fc.assert(
        fc.asyncProperty(
          values,
          fc.option(fc.dictionary(fc.constantFrom('unknown', '__proto__', 'callback', 'constructor'), hostileString, { maxKeys: 2 }), {
            nil: undefined,
            freq: 4,
          }),
          async (picked, strays) => {
            const search = new URLSearchParams();
            for (const [name, value] of Object.entries({ ...strays, ...picked }))
              for (const item of asQueryValue(value)) search.append(name, item);
            const url = `${server.url}/api/v1${operation.path}?${search.toString()}`;
            await check(await fetch(url, { method: operation.method }), `${operation.method} ${url.slice(0, 300)}`, [
              ...search.keys(),
              ...search.values(),
            ]);
          },
        ),
        { numRuns: RUNS },
      );
    }
  }, 240_000);

  it('answers every JSON body, and bodies that are not JSON, without a 5xx or a leak', async () => {
    for (const operation of operations.filter((candidate) => candidate.body !== undefined)) {
      const url = `${server.url}/api/v1${operation.path}`;
      const body = fc.oneof(
        { weight: 3, arbitrary: validValue(operation.body!).map((value) => JSON.stringify(value)) },
        { weight: 3, arbitrary: objectArguments(operation.body!).map((value) => JSON.stringify(value)) },
        { weight: 1, arbitrary: hostileJson.map((value) => JSON.stringify(value) ?? 'null') },
        { weight: 1, arbitrary: hostileString },
      );
      const contentType = fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
      );
      await fc.assert(
        fc.asyncProperty(body, contentType, async (text, type) => {
          const response = await fetch(url, { method: operation.method, headers: { 'Content-Type': type }, body: text });
          await check(response, `${operation.method} ${operation.path} ${type} ${text.slice(0, 200)}`, [
            text,
            ...stringsIn(safeParse(text)),
          ]);
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    }
  }, 240_000);

  it('answers malformed percent-encoding and odd paths under /api/v1 without a 5xx or a leak', async () => {
    const raw = [
      '/rates?state=%',
      '/rates?state=%E0%A4%A',
      '/rates?%=%',
      '/loan-limits?county=%00',
      '/calendar?from=%ff%fe',
      '/%',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/rates/..%2f..%2fhealthz',
      '/rates;jsessionid=1',
      '/RATES',
      '/rates/',
      '/search?query=a%00b',
      '/loan-limits?state=C%00A',
      '/calendar?category=fed%00',
    ];
    for (const path of raw) {
      await check(await fetch(`${server.url}/api/v1${path}`), path);
    }
  });
});
