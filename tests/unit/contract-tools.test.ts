// The converted capabilities without a database: each recorded answer (tests/fixtures/contracts,
// captured from the real services over synced data) fits its contract with nothing left over, and
// each MCP handler — captured from registerTool, called directly as the SDK would call it — returns
// structuredContent its output schema accepts. Natural argument variants reach the service as the
// canonical form; unknown arguments are refused naming the known ones.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { createGlossaryService } from '../../api/glossary/service.ts';
import { GlossaryAnswerSchema, GlossaryQuerySchema } from '../../api/glossary/contract.ts';
import { SearchAnswerSchema, type SearchAnswer } from '../../api/search/contract.ts';
import { BillsAnswerSchema, type BillsAnswer, type BillsQuery } from '../../api/bills/contract.ts';
import type { SearchInput } from '../../api/search/service.ts';
import { lookupGlossaryTermTool } from '../../api/mcp/tools/lookup-glossary-term.ts';
import { searchContentTool } from '../../api/mcp/tools/search-content.ts';
import { getCongressBillsTool } from '../../api/mcp/tools/get-congress-bills.ts';
import { callLikeTheSdk, expectExactly, resultText as text, answering, serviceStub, toolContext } from '../support/contract-tool.ts';

const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'contracts', name), 'utf8'));

/** The glossary tool's context: the real glossary service, which reads content/glossary. */
const glossaryContext = () =>
  toolContext(lookupGlossaryTermTool, { glossary: createGlossaryService({ baseUrl: 'http://localhost:3000' }) });

/** search_content's context: a search service answering the recording, noting what it was asked. */
function searchContext(answer: SearchAnswer) {
  const { method, asked } = answering<SearchInput, SearchAnswer>(answer);
  return { context: toolContext(searchContentTool, { search: serviceStub('search', { search: method }) }), asked };
}

/** get_congress_bills' context: a bills service answering the recording, noting what it was asked. */
function billsContext(answer: BillsAnswer) {
  const { method, asked } = answering<BillsQuery, BillsAnswer>(answer);
  return { context: toolContext(getCongressBillsTool, { bills: serviceStub('bills', { answer: method }) }), asked };
}

describe('lookup_glossary_term from the glossary contract', () => {
  const context = glossaryContext();

  it('answers from the content with structuredContent the output schema takes exactly', async () => {
    const result = await callLikeTheSdk(lookupGlossaryTermTool, context, { term: 'PMI' });
    const answer = expectExactly(GlossaryAnswerSchema, result.structuredContent);
    expect(answer.term).toMatch(/private mortgage insurance/i);
    expect(answer.match).toBe('exact');
    expect(answer.sources[0]?.url).toBe(answer.url);
    expect(text(result)).toContain(answer.definition);
  });

  it.each([
    [{ term: 'debt to income' }, 'Debt-to-income ratio (DTI)'],
    [{ term: 'DTI' }, 'Debt-to-income ratio (DTI)'],
    [{ term: '  dti ' }, 'Debt-to-income ratio (DTI)'],
    [{ term: 'loan to value' }, 'Loan-to-value ratio (LTV)'],
  ])('finds %j as %s', async (args, term) => {
    const result = await callLikeTheSdk(lookupGlossaryTermTool, context, args);
    expect((result.structuredContent as { term: string }).term).toBe(term);
  });

  it('refuses an unknown argument naming the known one, and an empty term naming the parameter', async () => {
    const unknown = await lookupGlossaryTermTool.call({ term: 'APR', language: 'es' }, context);
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe("Unknown argument 'language'. Known arguments: term.");
    const empty = await lookupGlossaryTermTool.call({ term: ' ' }, context);
    expect(text(empty)).toBe(`Invalid value for 'term': "". Give up to 100 characters, e.g. "APR".`);
  });

  it('answers 404 wording for a term nothing matches', async () => {
    const result = await lookupGlossaryTermTool.call({ term: 'zzqx' }, context);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^No glossary term matches "zzqx"/);
  });

  it('takes the query schema as the input schema', () => {
    expect(Object.keys(lookupGlossaryTermTool.strictInput.shape)).toEqual(Object.keys(GlossaryQuerySchema.shape));
  });
});

describe('search_content from the search contract', () => {
  const answer = expectExactly(SearchAnswerSchema, fixture('search-answer.json'));

  it('passes the recorded answer through as structuredContent', async () => {
    const { context } = searchContext(answer);
    const result = await callLikeTheSdk(searchContentTool, context, { query: 'escrow cushion', limit: 3 });
    expect(expectExactly(SearchAnswerSchema, result.structuredContent)).toEqual(answer);
    expect(text(result)).toContain(answer.results[0]?.url ?? 'no results');
  });

  it.each([
    [{ query: 'escrow cushion' }, { query: 'escrow cushion', limit: 10 }],
    [
      { query: ' escrow cushion ', type: 'GLOSSARY', limit: '3' },
      { query: 'escrow cushion', type: 'glossary', limit: 3 },
    ],
    [
      { query: 'escrow', type: 'Articles' },
      { query: 'escrow', type: 'article', limit: 10 },
    ],
  ])('asks the service %j as %j', async (args, canonical) => {
    const { context, asked } = searchContext(answer);
    await callLikeTheSdk(searchContentTool, context, args);
    expect(asked).toEqual([canonical]);
  });

  it('refuses unknown arguments and a limit out of range', async () => {
    const { context } = searchContext(answer);
    expect(text(await searchContentTool.call({ query: 'x', page: 2 }, context))).toBe(
      "Unknown argument 'page'. Known arguments: query, type, limit.",
    );
    expect(text(await searchContentTool.call({ query: 'x', limit: '500' }, context))).toBe(
      "Invalid value for 'limit': 500. Give a whole number from 1 to 50.",
    );
  });
});

describe('get_congress_bills from the bills contract', () => {
  const search = expectExactly(BillsAnswerSchema, fixture('bills-search-answer.json'));
  const one = expectExactly(BillsAnswerSchema, fixture('bill-answer.json'));

  it('passes a search and one bill in full through as structuredContent', async () => {
    for (const answer of [search, one]) {
      const { context } = billsContext(answer);
      const result = await callLikeTheSdk(getCongressBillsTool, context, {});
      expect(expectExactly(BillsAnswerSchema, result.structuredContent)).toEqual(answer);
    }
    expect(one.bills[0]).toHaveProperty('analysis');
    expect(search.bills[0]).not.toHaveProperty('analysis');
  });

  it('writes one bill in full as text, with its sources', async () => {
    const { context } = billsContext(one);
    const result = await callLikeTheSdk(getCongressBillsTool, context, { bill_id: 'hr1532-117' });
    expect(text(result)).toMatch(/^H\.R\. 1532 \(117th Congress\): /);
    expect(text(result)).toContain('Source: congress.gov, https://www.congress.gov/bill/117th-congress/house-bill/1532');
  });

  it.each([
    [{ status: 'In Committee' }, { status: 'in_committee', limit: 20 }],
    [
      { status: 'BECAME-LAW', limit: '5' },
      { status: 'became_law', limit: 5 },
    ],
    [
      { query: ' FHA ', bill_id: 'HR1532-117' },
      { query: 'FHA', bill_id: 'HR1532-117', limit: 20 },
    ],
  ])('asks the service %j as %j', async (args, canonical) => {
    const { context, asked } = billsContext(search);
    await callLikeTheSdk(getCongressBillsTool, context, args);
    expect(asked).toEqual([canonical]);
  });

  it('refuses an unknown status listing the valid ones, and unknown arguments', async () => {
    const { context } = billsContext(search);
    expect(text(await getCongressBillsTool.call({ status: 'pending' }, context))).toMatch(
      /^Invalid value for 'status': "pending"\. Valid values: introduced, in_committee, .*became_law, died_in_committee\.$/,
    );
    expect(text(await getCongressBillsTool.call({ sponsor: 'Waters' }, context))).toBe(
      "Unknown argument 'sponsor'. Known arguments: query, bill_id, status, limit, keyword.",
    );
  });

  it('takes `keyword` as the same argument as `query`, both searched when both are given', async () => {
    const { context, asked } = billsContext(search);
    await callLikeTheSdk(getCongressBillsTool, context, { keyword: ' FHA ' });
    await callLikeTheSdk(getCongressBillsTool, context, { keyword: 'FHA', query: 'FHA' });
    await callLikeTheSdk(getCongressBillsTool, context, { query: 'FHA', keyword: 'housing supply', status: 'in committee' });
    expect(asked).toEqual([
      { query: 'FHA', limit: 20 },
      { query: 'FHA', limit: 20 },
      { query: 'FHA housing supply', status: 'in_committee', limit: 20 },
    ]);
  });
});
