// The loan-limit parsers on every format variant of the real official files (pipe-delimited with and
// without header spaces, BOM, CRLF; FHFA's xlsx; HUD's CHUMS CSV; Census's county list), and the
// county-name normalisation that lets every spelling resolve.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCountyList } from '../../api/geo/county-list.ts';
import { parseConformingFile } from '../../api/loan-limits/fhfa-parser.ts';
import { parseFhaFile } from '../../api/loan-limits/hud-parser.ts';
import { readNationalHistory } from '../../api/loan-limits/history.ts';
import { baseKey, matchKey, titleCase } from '../../api/geo/county-names.ts';
import { resolveCounty, type CountyRecord } from '../../api/loan-limits/resolve.ts';
import { nationalFigures } from '../../api/loan-limits/validate.ts';
import { SourceFormatError } from '../../api/sync/errors.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

const conforming = (year: number) => sourceFile('loan_limits', 'fhfa_conforming', `FullCountyLoanLimitList${year}.txt`);
const read = (file: string) => fs.readFileSync(file);

describe('county-name normalisation', () => {
  it('maps squashed, spaced and suffix-less spellings to one key', () => {
    expect(matchKey('AUTAUGACOUNTY')).toBe(matchKey('Autauga County'));
    expect(baseKey(matchKey('LOS ANGELES'))).toBe(baseKey(matchKey('LOSANGELESCOUNTY')));
    expect(matchKey('Saint Clair County')).toBe(matchKey('ST. CLAIR COUNTY'));
    expect(baseKey(matchKey('Baltimore city'))).not.toBe(baseKey(matchKey('Baltimore County')));
  });

  it('title-cases names no list has', () => {
    expect(titleCase('PRINCE OF WALES-HYDER CENSUS AREA')).toBe('Prince of Wales-Hyder Census Area');
  });
});

describe('county resolution', () => {
  const ca: CountyRecord[] = [
    { fips: '06037', state: 'CA', stateFips: '06', name: 'Los Angeles County', matchKey: 'LOSANGELESCOUNTY', kind: 'county', note: null },
    { fips: '06059', state: 'CA', stateFips: '06', name: 'Orange County', matchKey: 'ORANGECOUNTY', kind: 'county', note: null },
  ];

  it('finds a county by name, squashed name or FIPS', () => {
    expect(resolveCounty(ca, 'CA', 'los angeles').fips).toBe('06037');
    expect(resolveCounty(ca, 'CA', 'LOSANGELESCOUNTY').fips).toBe('06037');
    expect(resolveCounty(ca, 'CA', '06059').name).toBe('Orange County');
    expect(resolveCounty(ca, 'CA', '037').fips).toBe('06037');
  });

  it('suggests close names for a misspelt county', () => {
    expect(() => resolveCounty(ca, 'CA', 'Los Angelos')).toThrow(/Did you mean: Los Angeles County \(06037\)/);
  });

  it('refuses a FIPS code from another state', () => {
    expect(() => resolveCounty(ca, 'CA', '48201')).toThrow(/not in CA/);
  });
});

describe.skipIf(!hasSourceData)('FHFA conforming files (real mirror)', () => {
  it.each([2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025])('parses %i with its header, BOM and line-ending variant', async (year) => {
    const bytes = read(conforming(year));
    const rows = await parseConformingFile(bytes, conforming(year));
    expect(rows.length).toBeGreaterThanOrEqual(3_200);
    expect(rows.every((row) => /^\d{5}$/.test(row.fips) && row.limits.every((value) => value > 0))).toBe(true);
    const losAngeles = rows.find((row) => row.fips === '06037');
    expect(losAngeles?.state).toBe('CA');
    expect(matchKey(losAngeles?.sourceName ?? '')).toMatch(/^LOSANGELES/);
  });

  it('covers the drift the files have: spaced and squashed headers, BOM and CRLF', () => {
    const starts = [2018, 2019, 2021, 2025].map((year) => read(conforming(year)).subarray(0, 20).toString('utf8'));
    expect(starts[0]?.startsWith('FIPS State Code')).toBe(true);
    expect(starts[1]?.charCodeAt(0)).toBe(0xfeff);
    expect(starts[2]?.includes('FIPSStateCode')).toBe(true);
    expect(read(conforming(2018)).includes('\r\n')).toBe(true);
    expect(read(conforming(2025)).includes('\r\n')).toBe(false);
  });

  it('reads 2024 with both the old Connecticut counties and the planning regions, CBSA "14860.0" normalised', async () => {
    const rows = await parseConformingFile(read(conforming(2024)), conforming(2024));
    const ct = rows.filter((row) => row.state === 'CT').map((row) => row.fips);
    expect(ct).toContain('09001');
    expect(ct).toContain('09110');
    expect(rows.find((row) => row.fips === '09120')?.cbsa).toBe('14860');
  });

  it('reads the 2026 xlsx: title row, header on row 2, text FIPS, anchors', async () => {
    const file = sourceFile('loan_limits', 'fhfa_conforming', 'fullcountyloanlimitlist2026_hera-based_final_flat.xlsx');
    const rows = await parseConformingFile(read(file), file);
    expect(rows.length).toBeGreaterThanOrEqual(3_200);
    expect(rows[0]?.line).toBe(3);
    expect(rows.find((row) => row.fips === '06037')?.limits[0]).toBe(1_249_125);
    expect(rows.find((row) => row.fips === '01101')?.sourceName).toBe('MONTGOMERY COUNTY');
    const national = nationalFigures(rows);
    expect(national.floor[0]).toBe(832_750);
    expect(national.ceiling[0]).toBe(1_249_125);
  });

  it('gives the same values from the xlsx and its CSV conversion', async () => {
    const xlsx = sourceFile('loan_limits', 'fhfa_conforming', 'fullcountyloanlimitlist2026_hera-based_final_flat.xlsx');
    const csv = sourceFile('loan_limits', 'fhfa_conforming', 'FullCountyLoanLimitList2026_converted_from_xlsx.csv');
    const a = await parseConformingFile(read(xlsx), xlsx);
    const b = await parseConformingFile(read(csv), csv);
    expect(b.map((row) => [row.fips, ...row.limits])).toEqual(a.map((row) => [row.fips, ...row.limits]));
  });

  it('equals the national history for every year with a county file', async () => {
    const history = readNationalHistory();
    for (const year of [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025]) {
      const national = nationalFigures(await parseConformingFile(read(conforming(year)), conforming(year)));
      const entry = history.conforming.find((candidate) => candidate.year === year);
      expect([national.floor[0], national.ceiling[0]]).toEqual([entry?.baseline, entry?.ceiling]);
    }
  });

  it('names the file and line of a broken row', async () => {
    const text = read(conforming(2025)).toString('utf8').split('\n');
    text[41] = '06|037|LOSANGELESCOUNTY|CA|31080|12O9750|1548975|1872225|2326875';
    await expect(parseConformingFile(Buffer.from(text.join('\n')), 'FullCountyLoanLimitList2025.txt')).rejects.toThrow(
      /FullCountyLoanLimitList2025\.txt:42: 1-unit limit "12O9750" is not a whole number/,
    );
  });

  it('rejects a truncated row', async () => {
    const text = read(conforming(2019)).toString('utf8').split('\r\n');
    text[10] = '01|019|CHEROKEE|AL';
    await expect(parseConformingFile(Buffer.from(text.join('\r\n')), 'x.txt')).rejects.toThrow(SourceFormatError);
  });
});

describe.skipIf(!hasSourceData)('HUD FHA forward limits (real mirror)', () => {
  const states = new Map<string, string>();
  if (hasSourceData) {
    for (const county of parseCountyList(read(sourceFile('geo', 'county_FIPS.csv')), 'county_FIPS.csv'))
      states.set(county.state, county.stateFips);
  }

  it.each([2018, 2019, 2021, 2022, 2023, 2024, 2025])('parses %i: county rows, S/H types, national 203B and ZZ203 rows', (year) => {
    const file = sourceFile('loan_limits', 'hud_fha', `forward_limits_${year}.csv`);
    const parsed = parseFhaFile(read(file), file, states);
    expect(parsed.counties.length).toBeGreaterThanOrEqual(3_200);
    expect(parsed.floor).toBeDefined();
    expect(parsed.ceiling?.limits[0]).toBe(nationalFigures(parsed.counties).ceiling[0]);
    expect(new Set(parsed.counties.map((row) => row.limitType))).toEqual(new Set(['S', 'H']));
  });

  it('reads zero-padded values and keeps the 2025 national 203B typo apart from the county floor', () => {
    const file = sourceFile('loan_limits', 'hud_fha', 'forward_limits_2025.csv');
    const parsed = parseFhaFile(read(file), file, states);
    expect(parsed.floor?.limits[0]).toBe(524_255);
    expect(nationalFigures(parsed.counties).floor[0]).toBe(524_225);
    expect(parsed.counties.find((row) => row.fips === '06037')).toMatchObject({
      limitType: 'H',
      limits: [1_209_750, 1_548_975, 1_872_225, 2_326_875],
    });
  });
});

describe.skipIf(!hasSourceData)('Census county list (real mirror)', () => {
  it('has every county with its Census name and the pre-2022 Connecticut counties', () => {
    const counties = parseCountyList(read(sourceFile('geo', 'county_FIPS.csv')), 'county_FIPS.csv');
    expect(counties.length).toBeGreaterThanOrEqual(3_200);
    expect(counties.find((county) => county.fips === '01001')?.name).toBe('Autauga County');
    expect(counties.filter((county) => county.state === 'CT')).toHaveLength(8);
  });
});
