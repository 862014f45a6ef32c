// What an agent connected only to MCP asks beside the series: HUD's income limits and median family
// income of a county and fiscal year (find_series gives the id, analyze_data the figure), and what an
// HMDA code means (find_series reads the catalogue's code book; GET /series?query= says the same).
// Every figure and meaning is checked against the publisher's file, read by the small readers below
// (not the service's code): HUD's Section 8 income-limit files and the CFPB's public LAR spec.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resultText } from '../support/mcp-client.ts';
import { catalogue, type HmdaCode } from '../../api/catalogue/measures.ts';
import { codeMeaning, codesNamedIn } from '../../api/catalogue/code-book.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { startSyncedMcp, type SyncedMcp } from '../support/synced-mcp.ts';

const DATASETS = ['counties', 'hud_median_family_income', 'hmda_lenders'];

// ---- The independent readers: the publishers' files, read here. ----

/** One CSV line's fields (quoted or not, as the FY19 and FY20 files quote every field). */
function fields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      out.push(field);
      field = '';
    } else field += char;
  }
  return [...out, field];
}

/** HUD's rows of a fiscal year, by column name. */
function hudRows(fiscalYear: number): Record<string, string>[] {
  const text = fs.readFileSync(sourceFile('income_limits', 'hud_section8', `Section8-FY${fiscalYear % 100}.csv`), 'latin1');
  const [header, ...lines] = text.replace(/^\u00ef\u00bb\u00bf/, '').split(/\r?\n/);
  const names = fields(header!).map((name) => name.trim());
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const values = fields(line);
      return Object.fromEntries(names.map((name, index) => [name, (values[index] ?? '').trim()]));
    });
}

/** HUD's row for a whole county (`<FIPS>99999`) of a fiscal year. */
function hudRow(fiscalYear: number, county: string): Record<string, string> {
  const row = hudRows(fiscalYear).find((candidate) => candidate.fips2010 === `${county}99999`);
  if (!row) throw new Error(`No FY${fiscalYear} row for ${county}`);
  return row;
}

/** The rows of a CSV text, a quoted field running over commas and lines (the spec quotes its long descriptions). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      row.push(field);
      field = '';
    } else if (char === '\n' && !quoted) {
      rows.push([...row, field]);
      row = [];
      field = '';
    } else if (char !== '\r') field += char;
  }
  return field === '' && row.length === 0 ? rows : [...rows, [...row, field]];
}

/**
 * The public LAR spec's coded fields: each field's valid values (its "Valid Values" column) with
 * what each means, read from its "Descriptions: 1. … 2. …" text ("Reason for Denial: 1" → {1:
 * "Debt-to-income ratio", …}). A number inside a meaning ("VantageScore 3.0") is not a code, and a
 * meaning ends at the sentence the spec adds after the last one ("Not applicable. If the …").
 */
function specFields(): Map<string, Record<string, string>> {
  const text = fs.readFileSync(sourceFile('hmda', 'dictionary', 'hmda_platform_spec', 'Public_File_LAR_Spec.csv'), 'utf8');
  const coded = new Map<string, Record<string, string>>();
  for (const row of csvRows(text).slice(2)) {
    const [name, values, description] = [row[1]?.trim() ?? '', row[4]?.trim() ?? '', (row[5] ?? '').replace(/\s+/g, ' ')];
    if (values === '' || !description.includes('Descriptions:')) continue; // free text, amounts, the record identifier
    const meanings: Record<string, string> = {};
    for (const code of values.split(/\s+/)) {
      const found = new RegExp(`(?:^|[\\s:])${code}\\.(?!\\d)\\s*(.*?)(?=\\s+\\d+\\.(?!\\d)|\\.\\s+If |\\.?\\s*$)`).exec(description);
      if (!found) throw new Error(`${name}: no description of ${code}`);
      meanings[code] = found[1]!.trim().replace(/\.$/, '');
    }
    coded.set(name, meanings);
  }
  return coded;
}

/** The public LAR spec's meanings of one field's codes. */
function specMeanings(field: string): Record<string, string> {
  const meanings = specFields().get(field);
  if (!meanings) throw new Error(`No coded field ${field} in the spec`);
  return meanings;
}

/** The 2020 HMDA transmittal sheet's filers: LEI, name and the records each reported (`lar_count`). */
function transmittalSheet2020(): { lei: string; name: string; records: number }[] {
  const [header, ...lines] = fs.readFileSync(sourceFile('hmda', 'institutions', '2020_ts_csv.csv'), 'utf8').split(/\r?\n/);
  const names = fields(header!);
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = Object.fromEntries(fields(line).map((value, index) => [names[index], value]));
      return { lei: row.lei!, name: row.respondent_name!, records: Number(row.lar_count) };
    });
}

/** Meanings compared as words: the spec drops a comma the FFIEC's own pages print ("(downpayment, closing costs)"). */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

// ---- The tests. ----

/** Catalogue fields the spec has no codes for: counts of derived values (the public file's binned age, loan product, race as one value). */
const DERIVED = ['totalUnits', 'loanProduct', 'dwellingCategory', 'sex', 'race', 'ethnicity'];

describe.skipIf(!hasSourceData)('the code book against the public LAR spec', () => {
  const spec = specFields();
  const book = new Map<string, HmdaCode[]>();
  for (const code of catalogue().hmdaCodes) book.set(code.dimension, [...(book.get(code.dimension) ?? []), code]);

  it('every code of every field the spec has means what the spec says, and no spec code is missing', () => {
    for (const [dimension, codes] of book) {
      const field = codes[0]!.spec;
      if (field === undefined) {
        expect(DERIVED, `${dimension} names no spec field`).toContain(dimension);
        continue;
      }
      const meanings = spec.get(field);
      expect(meanings, `${dimension}: no coded field ${field} in the spec`).toBeDefined();
      for (const code of codes) {
        // The public file bins age (<25 … >74), and counts 9999 where the register has no age: only 8888 is the spec's.
        if (dimension === 'age' && meanings![code.code] === undefined) continue;
        expect(meanings![code.code], `${dimension} ${code.code}`).toBeDefined();
        expect(words(codeMeaning(code)), `${dimension} ${code.code}`).toBe(words(meanings![code.code]!));
      }
      expect(Object.keys(meanings!).sort(), dimension).toEqual(
        codes
          .map((code) => code.code)
          .filter((code) => meanings![code] !== undefined)
          .sort(),
      );
    }
  });

  it("every coded field of the spec is in the code book (a field's second to fifth columns through its first)", () => {
    const named = new Map([...book.values()].flatMap((codes) => (codes[0]!.spec ? [[codes[0]!.spec, codes] as const] : [])));
    expect(spec.size).toBeGreaterThan(40);
    for (const [field, meanings] of spec) {
      const codes = named.get(field) ?? named.get(field.replace(/: \d$/, ': 1'));
      expect(codes, field).toBeDefined();
      for (const [code, meaning] of Object.entries(meanings)) {
        const entry = codes!.find((candidate) => candidate.code === code);
        expect(entry, `${field} ${code}`).toBeDefined();
        expect(words(codeMeaning(entry!)), `${field} ${code}`).toBe(words(meaning));
      }
    }
  });

  it('a field named with "what codes can it take" lists all its codes; named in a count question, none', () => {
    const hoepa = codesNamedIn('On a HMDA loan record, what does HOEPA status 1 mean, and what are the other codes that field can take?');
    expect(hoepa.map((code) => [code.label, code.code])).toEqual(
      Object.keys(spec.get('HOEPA Status')!).map((code) => ['HOEPA status', code]),
    );
    expect(codesNamedIn('what values can lien_status take').map((code) => code.code)).toEqual(['1', '2']);
    // The public file's column names its field only: the 1 of applicant_race_1 is not a code.
    expect(codesNamedIn('what does applicant_race_1 code 5 mean').map((code) => [code.label, code.code])).toEqual([
      ['race of applicant or borrower', '5'],
    ]);
    expect(codesNamedIn('how many first-lien loans were high-cost under HOEPA status in Texas')).toEqual([]);
  });
});

describe.skipIf(!hasSourceData)('income limits and HMDA code meanings over MCP', () => {
  let synced: SyncedMcp;
  let client: Client;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the structured answers, checked field by field
  const call = async (name: string, args: Record<string, unknown>): Promise<{ text: string; structured: any; isError: boolean }> => {
    const answer = await client.callTool({ name, arguments: args });
    return { text: resultText(answer), structured: answer.structuredContent, isError: answer.isError === true };
  };

  beforeAll(async () => {
    synced = await startSyncedMcp(DATASETS);
    ({ client } = synced);
  }, 900_000);
  afterAll(async () => {
    await synced?.close();
  });

  it("an income limit: find_series names the county's series, analyze_data gives HUD's FY2022 figure", async () => {
    const found = await call('find_series', { query: 'very low income limit for a family of four in Cook County, Illinois' });
    expect(found.isError).toBe(false);
    const id = found.structured.results[0].id;
    expect(id).toBe('income-limits/very-low/17031/4-person');
    const value = await call('analyze_data', { operation: 'value', series: id, at: 2022 });
    expect(value.isError, value.text).toBe(false);
    const expected = Number(hudRow(2022, '17031').l50_4);
    expect(value.structured.result.point.value).toBe(expected);
    expect(value.text).toContain(expected.toLocaleString('en-US'));
  });

  it('every level and household size, and the median family income, of another county and year equal the file', async () => {
    const row = hudRow(2019, '48201');
    const found = await call('find_series', { query: 'area median family income Harris County Texas' });
    expect(found.structured.results[0].id).toBe('income-limits/median/48201');
    const median = await call('analyze_data', { operation: 'value', series: 'income-limits/median/48201', at: 2019 });
    expect(median.structured.result.point.value).toBe(Number(row.median2019));
    for (const [slug, column] of [
      ['extremely-low', 'ELI'],
      ['very-low', 'l50'],
      ['low', 'l80'],
    ] as const)
      for (const size of [1, 3, 8]) {
        const limit = await call('analyze_data', { operation: 'value', series: `income-limits/${slug}/48201/${size}-person`, at: 2019 });
        expect(limit.structured.result.point.value, `${slug} ${size}`).toBe(Number(row[`${column}_${size}`]));
      }
  });

  it("ranks a state's counties by an income limit in one call, as the file orders them", async () => {
    const illinois = hudRows(2022)
      .filter((row) => row.State_Alpha === 'IL' && row.fips2010?.endsWith('99999'))
      .map((row) => ({ fips: row.fips2010!.slice(0, 5), value: Number(row.l80_4) }))
      .sort((a, b) => b.value - a.value);
    const rank = await call('analyze_data', {
      operation: 'rank',
      series: 'income-limits/low/*/4-person',
      state: 'IL',
      at: 2022,
      limit: 1,
    });
    expect(rank.isError, rank.text).toBe(false);
    const top = illinois.filter((county) => county.value === illinois[0]!.value);
    expect(rank.structured.result.members.map((member: { value: number }) => member.value)).toEqual(top.map((county) => county.value));
    expect(rank.structured.result.members.map((member: { place: string }) => member.place).sort()).toEqual(
      top.map((county) => county.fips).sort(),
    );
  });

  it('a county HUD lists only by town has no county series, and find_series says why', async () => {
    expect(hudRows(2022).some((row) => row.fips2010 === '0900399999')).toBe(false);
    expect(hudRows(2022).some((row) => row.fips2010?.startsWith('09003'))).toBe(true);
    const found = await call('find_series', { query: 'very low income limit family of four Hartford County, Connecticut' });
    expect(found.structured.results).toEqual([]);
    expect(found.text).toMatch(/New England counties by town/);
  });

  it('a denial reason code: find_series says what it means, as the public LAR spec does', async () => {
    const spec = specMeanings('Reason for Denial: 1');
    const found = await call('find_series', { query: 'what do denial reason codes 3 and 5 mean?' });
    expect(found.isError).toBe(false);
    const codes = found.structured.codes as { field: string; code: string; meaning: string; series: string | null }[];
    expect(codes.map((code) => [code.field, code.code, code.series])).toEqual([
      ['denial reason', '3', null],
      ['denial reason', '5', null],
    ]);
    for (const code of codes) expect(words(code.meaning)).toBe(words(spec[code.code]!));
    expect(found.text).toContain(`denial reason code 3 means: ${codes[0]!.meaning}`);
  });

  it("HOEPA status 1 and the field's other codes: find_series lists them all, as the spec words them", async () => {
    const spec = specMeanings('HOEPA Status');
    const found = await call('find_series', {
      query: 'On a HMDA loan record, what does HOEPA status 1 mean, and what are the other codes that field can take?',
    });
    const codes = found.structured.codes as { field: string; code: string; meaning: string }[];
    expect(codes.map((code) => code.code)).toEqual(Object.keys(spec));
    for (const code of codes) expect(words(code.meaning)).toBe(words(spec[code.code]!));
    expect(found.text).toContain('HMDA HOEPA status code 1 means: High-cost mortgage');
  });

  it('the institution with the most 2020 HMDA records and its share of the national total: one find_series call, as the sheet says', async () => {
    const sheet = transmittalSheet2020();
    const total = sheet.reduce((sum, filer) => sum + filer.records, 0);
    const most = sheet.reduce((best, filer) => (filer.records > best.records ? filer : best));
    const question = 'Which single institution reported the most HMDA records for 2020, and what share of the national total was that?';
    const found = await call('find_series', { query: question });
    expect(found.isError, found.text).toBe(false);
    const lenders = found.structured.lenders;
    expect([lenders.year, lenders.total_records, lenders.filers]).toEqual([2020, total, sheet.length]);
    expect(lenders.top[0]).toMatchObject({ rank: 1, lei: most.lei, name: most.name, records: most.records });
    expect(lenders.top[0].share_percent).toBeCloseTo((most.records / total) * 100, 2);
    expect(found.text).toContain(`1. ${most.name} (LEI ${most.lei}): ${most.records.toLocaleString('en-US')} records`);
    // REST's words are shorter (100 characters at most).
    const response = await fetch(`${synced.url}/api/v1/series?query=${encodeURIComponent('institution with the most HMDA records 2020')}`);
    expect(response.status).toBe(200);
    // Its page is longer (the catalogue's own default limit), the same filers first.
    const rest = ((await response.json()) as { lenders: { top: unknown[] } }).lenders;
    expect({ ...rest, top: rest.top.slice(0, lenders.top.length) }).toEqual(lenders);
    const missing = await call('find_series', { query: 'top lenders 2019' });
    expect(missing.structured.lenders).toBeUndefined();
    expect(missing.text).toMatch(/No HMDA filer list for 2019/);
  });

  it('GET /series?query= gives the same code meanings (loan purpose 32) beside the counted series', async () => {
    const spec = specMeanings('Loan Purpose');
    const response = await fetch(`${synced.url}/api/v1/series?query=${encodeURIComponent('loan purpose 32')}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { codes: { field: string; code: string; meaning: string; series: string | null }[] };
    expect(body.codes).toEqual([
      { field: 'loan purpose', code: '32', meaning: expect.any(String), series: 'hmda/{place}/cash_out_refinance_records' },
    ]);
    expect(words(body.codes[0]!.meaning)).toBe(words(spec['32']!));
    const mcp = await call('find_series', { query: 'loan purpose 32' });
    expect(mcp.structured.codes).toEqual(body.codes);
  });
});
