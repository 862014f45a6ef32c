// query_hmda from the HMDA contract, without a database: the handler the SDK registers, over answers
// recorded from the real 99-column slice (tests/fixtures/contracts/hmda-*.json). A whole answer
// passes through as structuredContent; an answer over the budget passes with its two resource
// links; both stay under the tool-result budget, text included. Natural argument forms reach the
// service in canonical form; unknown arguments and callers without a key are refused.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { HmdaAnswerSchema, HMDA_TEXT_BUDGET_BYTES, type HmdaAnswer, type HmdaQuery } from '../../api/hmda/contract.ts';
import { LoadProgress } from '../../api/hmda/load-progress.ts';
import { loadConfig } from '../../api/config.ts';
import { queryHmdaTool } from '../../api/mcp/tools/query-hmda.ts';
import type { McpCaller } from '../../api/mcp/tool-kit.ts';
import { TOOL_RESULT_BUDGET_BYTES, toolResultBytes } from '../../api/mcp/result-budget.ts';
import { callLikeTheSdk, resultText as text, answering, serviceStub, toolContext } from '../support/contract-tool.ts';

const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'contracts', name), 'utf8')) as HmdaAnswer;
const exported = fixture('hmda-export-answer.json');
const preset = fixture('hmda-preset-answer.json');

/** The load's progress as the tool reads it: loading 2025, 12 of 55 states in; or nothing under way. */
function progress(loaded: boolean): LoadProgress {
  const progress = new LoadProgress(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'no-warehouse'));
  if (!loaded) progress.update({ state: 'loading', year: 2025, states_published: 12, states_total: 55 }, new Date());
  return progress;
}

/** query_hmda's context: an HMDA service answering the recording, noting what it was asked. */
function context(answer: HmdaAnswer, caller: McpCaller = { kind: 'key', keyId: 'k1', accountId: 'a1' }, { loaded = true } = {}) {
  const { method, asked } = answering<HmdaQuery, HmdaAnswer>(answer);
  const hmda = serviceStub('hmda', {
    answer: method,
    asOf: () => (loaded ? answer.as_of : undefined),
    progress: progress(loaded),
  });
  return { context: toolContext(queryHmdaTool, { hmda }, { caller, config: loadConfig({ LOG_LEVEL: 'silent' }) }), asked };
}

describe('query_hmda from the HMDA contract', () => {
  it('records answers the contract takes exactly', () => {
    for (const answer of [exported, preset]) expect(HmdaAnswerSchema.parse(answer)).toEqual(answer);
    expect(exported).toMatchObject({ complete: false, row_count: 1985, partial: true });
    expect(preset).toMatchObject({ complete: true, export: null });
  });

  it('passes a whole answer through as structuredContent, with its rows as text', async () => {
    const { context: ctx } = context(preset);
    const result = await callLikeTheSdk(queryHmdaTool, ctx, { preset: 'approvals', year: 2020, state: 'CA' });
    expect(result.structuredContent).toEqual(preset);
    expect(result.content.map((block) => block.type)).toEqual(['text']);
    expect(text(result)).toContain(preset.columns.join(' | '));
    expect(text(result)).toContain('NOTE: this server holds extracts of state-years');
  });

  it('answers over the budget with the first rows and resource links to both files, under the budget', async () => {
    const { context: ctx } = context(exported);
    const result = await callLikeTheSdk(queryHmdaTool, ctx, { sql: 'SELECT * FROM lar' });
    expect(result.structuredContent).toEqual(exported);
    const links = result.content.filter((block) => block.type === 'resource_link');
    expect(links).toEqual([
      {
        type: 'resource_link',
        uri: exported.export!.csv_url,
        name: `hmda-${exported.export!.id.slice(0, 12)}.csv`,
        title: expect.stringContaining('1,985 rows'),
        description: expect.stringContaining('X-API-Key'),
        mimeType: 'text/csv',
        size: exported.export!.csv_bytes,
      },
      expect.objectContaining({
        uri: exported.export!.parquet_url,
        mimeType: 'application/vnd.apache.parquet',
        size: exported.export!.parquet_bytes,
      }),
    ]);
    expect(toolResultBytes(result)).toBeLessThanOrEqual(TOOL_RESULT_BUDGET_BYTES);
    expect(Buffer.byteLength(text(result))).toBeLessThanOrEqual(HMDA_TEXT_BUDGET_BYTES);
    expect(text(result)).toMatch(
      /^NOTE: .*\n1,985 rows: more than an answer carries \(60 KB\)\. The first \d+ are below; every row is in the CSV and Parquet files/,
    );
    expect(text(result)).toContain(`CSV ${exported.export!.csv_url}`);
  });

  it.each([
    [
      { preset: 'Lender-Rankings', year: '2020', state: 'California', sort: 'VOLUME', limit: '5' },
      { preset: 'lender_rankings', year: 2020, state: 'CA', sort: 'volume', limit: 5 },
    ],
    [
      { preset: 'RATES', loan_type: 'FHA', loan_purpose: 'Cash-Out Refinance', lien: 1, county: 6037 },
      { preset: 'rates', loan_type: 'fha', loan_purpose: 'cash_out_refinance', lien: 'first', county: '06037' },
    ],
    [
      { preset: 'denials', loan_type: '4', lei: ' 549300ul36ajz0wz4u93 ' },
      { preset: 'denials', loan_type: 'usda', lei: '549300UL36AJZ0WZ4U93' },
    ],
  ])('asks the service %j as %j', async (args, canonical) => {
    const { context: ctx, asked } = context(preset);
    await callLikeTheSdk(queryHmdaTool, ctx, args);
    expect(asked).toEqual([canonical]);
  });

  it('refuses unknown arguments naming the known ones, bad values saying what is valid, and callers without a key', async () => {
    const { context: ctx } = context(preset);
    expect(text(await queryHmdaTool.call({ preset: 'rates', credit_score: 700 }, ctx))).toBe(
      "Unknown argument 'credit_score'. Known arguments: year, state, county, msa, loan_type, loan_purpose, lien, lei, limit, by, sort, preset, sql.",
    );
    expect(text(await queryHmdaTool.call({ preset: 'rates', year: 2017 }, ctx))).toBe(
      "Invalid value for 'year': 2017. Give a whole number from 2018 to 2025.",
    );
    expect(text(await queryHmdaTool.call({ preset: 'rates', state: 'Narnia' }, ctx))).toMatch(
      /^Invalid value for 'state': "Narnia"\. Give a 2-letter code or a name/,
    );
    expect(text(await queryHmdaTool.call({ preset: 'everything' }, ctx))).toBe(
      'Invalid value for \'preset\': "everything". Valid values: rates, approvals, denials, demographics, lender_rankings.',
    );
    const anonymous = context(preset, { kind: 'anonymous' }).context;
    const refused = await queryHmdaTool.call({ preset: 'rates' }, anonymous);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^query_hmda needs an API key\./);
  });

  it('says records are not loaded before asking a caller without a key for one', async () => {
    const { context: anonymous, asked } = context(preset, { kind: 'anonymous' }, { loaded: false });
    const refused = await queryHmdaTool.call({ preset: 'rates' }, anonymous);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /^HMDA loan records are not loaded on this server yet\. Loading 2025 for every state is under way \(12 of 55 states loaded so far\)\. Once they are, query_hmda needs an API key: /,
    );
    expect(asked).toEqual([]);
  });
});
