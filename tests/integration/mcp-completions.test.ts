// Argument completion through the real MCP SDK client (`completion/complete`) against synced data:
// states, the counties of a state, county FIPS codes, glossary terms and slugs, and tracked bill
// ids, in the prompts and resource templates that take them. Expected values come from the
// publishers' files and the content read here, not from the code that completes them: a prefix in
// any case matches, and at most 100 values come back with the total.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PROJECT_ROOT } from '../../api/config.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { connectMcp, listAllResources } from '../support/mcp-client.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';

interface County {
  state: string;
  name: string;
  fips: string;
}

/** Census's county list (and Connecticut's planning regions), read with a plain line split. */
function censusCounties(): County[] {
  const [, ...lines] = fs
    .readFileSync(path.join(SOURCE_DIR, 'geo', 'county_FIPS.csv'), 'utf8')
    .trim()
    .split(/\r?\n/);
  const counties = lines.map((line) => {
    const [state = '', , , name = '', , fips = ''] = line.split(',');
    return { state, name, fips: fips.padStart(5, '0') };
  });
  const regions = JSON.parse(
    fs.readFileSync(path.join(PROJECT_ROOT, 'data', 'loan-limits', 'connecticut-planning-regions.json'), 'utf8'),
  ) as {
    regions: { fips: string; name: string }[];
  };
  for (const region of regions.regions)
    if (!counties.some((county) => county.fips === region.fips)) counties.push({ state: 'CT', name: region.name, fips: region.fips });
  return counties;
}

/** Glossary terms and aliases as the content files write them in their front matter. */
function glossaryFiles(): { slug: string; term: string; aliases: string[] }[] {
  const folder = path.join(PROJECT_ROOT, 'content', 'glossary');
  return fs
    .readdirSync(folder)
    .filter((file) => file.endsWith('.md'))
    .map((file) => {
      const text = fs.readFileSync(path.join(folder, file), 'utf8');
      const term = JSON.parse(/^term: (".*")$/m.exec(text)?.[1] ?? '""') as string;
      const aliases = JSON.parse(/^aliases: (\[.*\])$/m.exec(text)?.[1] ?? '[]') as string[];
      return { slug: file.replace(/\.md$/, ''), term, aliases };
    });
}

const sorted = (values: string[]) => [...values].sort();

describe.skipIf(!hasSourceData)('MCP argument completion', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let client: Client;
  const counties = hasSourceData ? censusCounties() : [];

  const prompt = async (name: string, argument: string, value: string, context: Record<string, string> = {}) =>
    (await client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value }, context: { arguments: context } }))
      .completion;
  const template = async (uri: string, argument: string, value: string, context: Record<string, string> = {}) =>
    (await client.complete({ ref: { type: 'ref/resource', uri }, argument: { name: argument, value }, context: { arguments: context } }))
      .completion;

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['counties', 'bills', 'loan_limits_conforming', 'loan_limits_fha']);
    testApp = await buildTestApp(database.db, { clock: () => new Date('2026-11-24T15:00:00Z') });
    server = await listen(testApp.app);
    client = await connectMcp(server.url);
  }, 240_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('says it offers completions', () => {
    expect(client.getServerCapabilities()?.completions).toBeDefined();
  });

  it('completes states by code or name, in any case, with territories only where loan limits cover them', async () => {
    expect((await prompt('compare_rates_for_my_state', 'state', 't')).values).toEqual(['TN', 'TX']);
    expect((await prompt('compare_rates_for_my_state', 'state', 'TEX')).values).toEqual(['TX']);
    expect((await prompt('compare_rates_for_my_state', 'state', 'new')).values).toEqual(['NH', 'NJ', 'NM', 'NY']);
    expect((await prompt('compare_rates_for_my_state', 'state', '')).values).toHaveLength(51);
    expect((await prompt('compare_rates_for_my_state', 'state', 'p')).values).toEqual(['PA']);
    expect((await prompt('loan_limits_for_my_county', 'state', 'p')).values).toEqual(['PA', 'PR']);
    expect((await template('mds://loan-limits/{state}/{county}', 'state', 'Puerto')).values).toEqual(['PR']);
    expect((await prompt('compare_rates_for_my_state', 'state', 'zz')).values).toEqual([]);
  });

  it('completes the counties of the state given, by name in any case or by FIPS code, as Census names them', async () => {
    const ofState = (state: string) => counties.filter((county) => county.state === state);
    const expectedSan = ofState('CA')
      .filter((county) => county.name.toLowerCase().startsWith('san'))
      .map((county) => county.name);
    expect(expectedSan.length).toBeGreaterThan(5);
    expect(sorted((await prompt('loan_limits_for_my_county', 'county', 'san', { state: 'CA' })).values)).toEqual(sorted(expectedSan));
    expect(sorted((await prompt('loan_limits_for_my_county', 'county', 'SAN ', { state: 'california' })).values)).toEqual(
      sorted(expectedSan),
    );
    expect((await prompt('loan_limits_for_my_county', 'county', 'los', { state: 'ca' })).values).toEqual(['Los Angeles County']);
    expect((await template('mds://loan-limits/{state}/{county}', 'county', 'Trav', { state: 'TX' })).values).toEqual(['Travis County']);
    // Louisiana's parishes, typed without "Parish".
    expect((await prompt('loan_limits_for_my_county', 'county', 'orleans', { state: 'LA' })).values).toEqual(['Orleans Parish']);
    const expectedFips = ofState('CA')
      .filter((county) => county.fips.startsWith('0603'))
      .map((county) => county.fips);
    expect((await prompt('loan_limits_for_my_county', 'county', '0603', { state: 'CA' })).values).toEqual(sorted(expectedFips));
    // Without a state, only a FIPS code names one county.
    expect((await prompt('loan_limits_for_my_county', 'county', '48453')).values).toEqual(['48453']);
    expect((await prompt('loan_limits_for_my_county', 'county', 'los')).values).toEqual([]);
  });

  it('completes FIPS codes in every state, at most 100 at a time with the total', async () => {
    const ca = await template('mds://counties/{fips}', 'fips', '06');
    expect(ca.values).toEqual(sorted(counties.filter((county) => county.fips.startsWith('06')).map((county) => county.fips)));
    expect(ca.values).toHaveLength(58);
    const forties = counties.filter((county) => county.fips.startsWith('4')).map((county) => county.fips);
    const many = await template('mds://counties/{fips}', 'fips', '4');
    expect(forties.length).toBeGreaterThan(100);
    expect(many.values).toEqual(sorted(forties).slice(0, 100));
    expect(many).toMatchObject({ total: forties.length, hasMore: true });
    const all = await template('mds://counties/{fips}', 'fips', '');
    expect(all.values).toHaveLength(100);
    expect(all.total).toBe(counties.length);
    expect((await template('mds://counties/{fips}', 'fips', 'abc')).values).toEqual([]);
  });

  it('reads a county by FIPS code, pointing to its loan limits', async () => {
    const read = await client.readResource({ uri: 'mds://counties/06037' });
    const county = JSON.parse(String((read.contents[0] as { text: string }).text)) as Record<string, unknown>;
    expect(county).toMatchObject({
      fips: '06037',
      name: 'Los Angeles County',
      state: 'CA',
      state_name: 'California',
      loan_limits: 'mds://loan-limits/CA/06037',
    });
    const limits = await client.readResource({ uri: String(county.loan_limits) });
    expect(JSON.stringify(limits.contents)).toContain('Los Angeles');
    await expect(client.readResource({ uri: 'mds://counties/99999' })).rejects.toThrow(/No county has the FIPS code "99999"/);
  });

  it('completes glossary terms by term, abbreviation or alias, and glossary slugs', async () => {
    const files = glossaryFiles();
    const startsWith = (prefix: string) =>
      files.filter((file) => [file.term, file.slug, ...file.aliases].some((name) => name.toLowerCase().startsWith(prefix)));
    const escrow = await prompt('explain_a_term', 'term', 'ESCROW');
    expect(sorted(escrow.values)).toEqual(sorted(startsWith('escrow').map((file) => file.term)));
    expect(escrow.values.length).toBeGreaterThanOrEqual(5);
    expect((await prompt('explain_a_term', 'term', 'dti')).values).toContain('Debt-to-income ratio (DTI)');
    expect((await template('mds://glossary/{slug}', 'slug', 'escrow-c')).values).toEqual(['escrow-cushion']);
    expect(sorted((await template('mds://glossary/{slug}', 'slug', 'Escrow')).values)).toEqual(
      sorted(startsWith('escrow').map((file) => file.slug)),
    );
    const everything = await template('mds://glossary/{slug}', 'slug', '');
    expect(everything.values).toHaveLength(100);
    expect(everything).toMatchObject({ total: files.length, hasMore: true });
  });

  it('completes tracked bill ids in any case, spaces and dots ignored, and reads a bill', async () => {
    const { rows } = await database.db.query<{ bill_id: string }>("SELECT bill_id FROM bills WHERE bill_id LIKE 'hr%' ORDER BY bill_id");
    const house = rows.map((row) => row.bill_id);
    expect(house.length).toBeGreaterThan(1);
    expect((await prompt('follow_a_bill', 'bill_id', 'HR')).values).toEqual(sorted(house));
    expect((await prompt('follow_a_bill', 'bill_id', 'H.R. 7735')).values).toEqual(['hr7735-117']);
    expect((await template('mds://bills/{bill_id}', 'bill_id', 'hr773')).values).toEqual(['hr7735-117']);
    const read = await client.readResource({ uri: 'mds://bills/hr7735-117' });
    const answer = JSON.parse(String((read.contents[0] as { text: string }).text)) as { bills: { bill_id: string; actions: unknown[] }[] };
    expect(answer.bills[0]?.bill_id).toBe('hr7735-117');
    expect(answer.bills[0]?.actions.length).toBeGreaterThan(0);
    const { resources } = await listAllResources(client);
    expect(
      resources
        .filter((resource) => resource.uri.startsWith('mds://bills/'))
        .map((resource) => resource.name)
        .sort(),
    ).toEqual((await database.db.query<{ bill_id: string }>('SELECT bill_id FROM bills ORDER BY bill_id')).rows.map((row) => row.bill_id));
  });

  it('reads prompt arguments as people write them', async () => {
    const county = await client.getPrompt({ name: 'loan_limits_for_my_county', arguments: { state: 'new york', county: 'Brooklyn' } });
    expect(JSON.stringify(county.messages)).toContain('for Kings County, NY');
    const rates = await client.getPrompt({ name: 'compare_rates_for_my_state', arguments: { state: 'texas' } });
    expect(JSON.stringify(rates.messages)).toContain('rate in TX');
    const term = await client.getPrompt({ name: 'explain_a_term', arguments: { term: ' DTI ' } });
    expect(JSON.stringify(term.messages)).toContain('explain \\"DTI\\"');
    await expect(client.getPrompt({ name: 'compare_rates_for_my_state', arguments: { state: 'Narnia' } })).rejects.toThrow(
      /Invalid value for 'state': "Narnia"/,
    );
  });
});
