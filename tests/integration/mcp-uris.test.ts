// Every address a tool or a search hands an agent reads over MCP: the mds:// resources search_content
// names for its results (articles, glossary, bills, research pages of states and counties), those
// find_series and analyze_data name for their series, and every id form REST accepts for a series.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resultText } from '../support/mcp-client.ts';
import { hasSourceData } from '../support/source-data.ts';
import { startSyncedMcp, type SyncedMcp } from '../support/synced-mcp.ts';

const DATASETS = [
  'loan_limits_conforming',
  'loan_limits_fha',
  'pmms',
  'optimal_blue',
  'economic_calendar',
  'bills',
  'search_index',
  'statistics',
  'hmda_aggregates',
  'population',
  'nmdb',
];

const CALLS: [string, Record<string, unknown>][] = [
  ['search_content', { query: 'Clark County Nevada originated 2023' }],
  ['search_content', { query: 'Rocket Mortgage' }],
  ['search_content', { query: 'loan limits Maricopa' }],
  ['search_content', { query: 'escrow cushion' }],
  ['search_content', { query: 'FHA share by state', type: 'research' }],
  ['find_series', { query: 'VA share Hawaii' }],
  ['find_series', { query: 'denial rate Harris County' }],
  ['find_series', { query: 'outstanding mortgages above 6% Arizona' }],
  ['analyze_data', { operation: 'compare', series: 'hmda/CA/originations', other: 'hmda/TX/originations', at: 2024 }],
];

/** Every mds:// address in a text, without the punctuation that ends a sentence. */
const addresses = (text: string) => [...text.matchAll(/mds:\/\/[^\s)]+/g)].map((match) => match[0].replace(/[.,;]+$/, ''));

describe.skipIf(!hasSourceData)('every address a tool gives reads', () => {
  let synced: SyncedMcp;
  let client: Client;

  beforeAll(async () => {
    synced = await startSyncedMcp(DATASETS);
    ({ client } = synced);
  }, 1_200_000);
  afterAll(async () => {
    await synced?.close();
  });

  it.each(CALLS)('%s %j: each mds:// address in the text reads', async (name, args) => {
    const text = resultText(await client.callTool({ name, arguments: args }));
    const found = addresses(text);
    expect(found.length, text).toBeGreaterThan(0);
    for (const uri of found) {
      const read = await client.readResource({ uri });
      expect(read.contents.length, uri).toBeGreaterThan(0);
    }
  });

  it('search results name each page once, with the resource that reads it', async () => {
    const text = resultText(await client.callTool({ name: 'search_content', arguments: { query: 'loan limits Maricopa' } }));
    const lines = [...text.matchAll(/^\d+\. .* read: (mds:\/\/\S+) · (https?:\/\/\S+)$/gm)];
    expect(lines.length).toBeGreaterThan(0);
    const urls = lines.map((match) => match[2]);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it.each([
    ['mds://series/MORTGAGE30US', 'pmms/30-year'],
    ['mds://series/hmda/HI/va', 'hmda/HI/va_records'],
    ['mds://series/hmda/06037/population', 'population/06037'],
    ['mds://series/HMDA/tx/Denial_Rate', 'hmda/TX/denial_rate'],
    ['mds://research/nevada/clark-county', undefined],
    ['mds://research/ohio', undefined],
  ])('%s reads', async (uri, id) => {
    const read = await client.readResource({ uri });
    const json = JSON.parse((read.contents[0] as { text: string }).text) as { id?: string };
    if (id) expect(json.id).toBe(id);
  });
});
