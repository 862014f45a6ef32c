// Property-based fuzzing of every MCP tool's arguments, derived from the input schemas `tools/list`
// returns (a new tool is covered the moment it is registered), through the SDK client with a key so
// key-only tools run too. Properties: every call ends in a result or a JSON-RPC error (never an HTTP
// 5xx), and no text carries a stack trace, a source path or SQL the caller did not send. Then the
// HMDA SQL attack list, end to end through `query_hmda`.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { connectMcp, resultText } from '../support/mcp-client.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { extractWarehouse, tempDir } from '../integration/hmda-fixtures.ts';
import {
  LEAK_PATTERNS,
  STACK_PATTERNS,
  inlineRefs,
  leaks,
  objectArguments,
  stringsIn,
  validValue,
  type JsonSchema,
} from './arbitraries.ts';

const DATASETS = [
  'loan_limits_conforming',
  'loan_limits_fha',
  'pmms',
  'optimal_blue',
  'economic_calendar',
  'bills',
  'search_index',
  'statistics',
];
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

/** The attack list of tests/unit/hmda-sql-guard.test.ts, with its `\n` and `\u{…}` escapes decoded. */
function attackList(): string[] {
  return fs
    .readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'hmda-sql-attacks.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) =>
      line.replace(/\\n/g, '\n').replace(/\\u\{([0-9a-fA-F]+)\}/g, (_match, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16))),
    );
}

describe.skipIf(!hasSourceData)('fuzzing every MCP tool argument from tools/list', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let client: Client;
  let hmdaDir: string;

  beforeAll(async () => {
    database = await syncedTestDatabase('postgres', DATASETS);
    hmdaDir = tempDir('fuzz-hmda');
    await extractWarehouse(hmdaDir);
    testApp = await buildTestApp(database.db, { env: { HMDA_DIR: hmdaDir } });
    server = await listen(testApp.app);
    const account = await testApp.deps.services.access.keys.findOrCreateAccountByEmail('fuzz@example.org');
    const { key } = await testApp.deps.services.access.keys.createKey(account.id, 'fuzz');
    client = await connectMcp(server.url, { 'X-API-Key': key });
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
    if (hmdaDir) fs.rmSync(hmdaDir, { recursive: true, force: true });
  });

  /**
   * One call: a result (success or isError) or an McpError; anything else fails the property.
   * query_hmda is the one tool whose answers carry SQL by design (the SQL it ran, the parser's
   * message about the caller's own SQL), so only stack traces count as leaks there.
   */
  async function callSafely(name: string, args: Record<string, unknown>): Promise<{ ok: boolean; text: string }> {
    const label = `${name}(${JSON.stringify(args).slice(0, 300)})`;
    const patterns = name === 'query_hmda' ? STACK_PATTERNS : LEAK_PATTERNS;
    let outcome: { ok: boolean; text: string };
    try {
      const result = await client.callTool({ name, arguments: args });
      outcome = { ok: result.isError !== true, text: `${resultText(result)} ${JSON.stringify(result.structuredContent ?? {})}` };
    } catch (error) {
      // Invalid arguments may be refused at the protocol level; an HTTP failure may not.
      expect(error, `${label} threw ${(error as Error).message}`).toBeInstanceOf(McpError);
      outcome = { ok: false, text: (error as Error).message };
    }
    expect(leaks(outcome.text, stringsIn(args), patterns), `${label} leaked: ${outcome.text.slice(0, 500)}`).toBeUndefined();
    // A fault inside a tool is a 500 in all but name.
    expect(outcome.text, label).not.toMatch(/Internal server error/i);
    return outcome;
  }

  it('answers every tool with arguments that fit, almost fit or are hostile', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(8);
    const outcomes: Record<string, { ok: number; refused: number }> = {};
    for (const tool of tools) {
      const schema = inlineRefs(tool.inputSchema as JsonSchema);
      const tally = (outcomes[tool.name] = { ok: 0, refused: 0 });
      const args = fc.oneof(
        { weight: 1, arbitrary: validValue(schema).map((value) => (value ?? {}) as Record<string, unknown>) },
        { weight: 1, arbitrary: objectArguments(schema) },
      );
      await fc.assert(
        fc.asyncProperty(args, async (value) => {
          const { ok } = await callSafely(tool.name, value);
          tally[ok ? 'ok' : 'refused'] += 1;
        }),
        // Each tool is also called with no arguments, first: random arguments rarely make a valid call
        // to a tool with required or interlocking arguments (rates, loan limits, SQL), so without it
        // the count of tools that answered (checked below) would depend on the seed.
        { numRuns: RUNS, examples: [[{}]] },
      );
    }
    // The process is still serving after all of it.
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    // Sanity: the fuzzing reached the tools' real code, not only their argument checks.
    const succeeded = Object.values(outcomes).filter((tally) => tally.ok > 0).length;
    expect(succeeded, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(4);
  }, 300_000);

  it('refuses a NUL character in every string argument of every tool as a bad argument, not a fault', async () => {
    const { tools } = await client.listTools();
    let checked = 0;
    for (const tool of tools) {
      const properties = inlineRefs(tool.inputSchema as JsonSchema).properties ?? {};
      for (const [field, schema] of Object.entries(properties)) {
        if (schema.type !== 'string') continue;
        const { ok, text } = await callSafely(tool.name, { [field]: 'a\u0000b' });
        expect(ok, `${tool.name}.${field}`).toBe(false);
        expect(text, `${tool.name}.${field}`).not.toMatch(/Internal server error/i);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('refuses every HMDA SQL attack through query_hmda, and still runs a harmless SELECT', async () => {
    const attacks = attackList();
    expect(attacks.length).toBeGreaterThan(50);
    for (const sql of attacks) {
      const { ok, text } = await callSafely('query_hmda', { sql });
      expect(ok, `accepted: ${sql}`).toBe(false);
      expect(text).not.toMatch(/root:x:0:0|PATH=|BEGIN PGP|\[extensions\]/);
    }
    const harmless = await client.callTool({ name: 'query_hmda', arguments: { sql: 'SELECT count(*) AS n FROM lar' } });
    expect(harmless.isError).not.toBe(true);
    expect((harmless.structuredContent as { row_count: number }).row_count).toBe(1);
  }, 120_000);
});
