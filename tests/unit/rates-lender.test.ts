// Lender/state inputs: the rate-sheet CSV importer with row-level file:line errors.
import { describe, expect, it } from 'vitest';
import { parseRateSheet, RateSheetError } from '../../api/rates/sync/rate-sheet.ts';

describe('rate-sheet importer', () => {
  const header = 'state,fico_tier,ltv_tier,product_type,loan_term,rate,date,source';

  it('reads tiers as numbers or labels, case-insensitive codes and quoted lender names', () => {
    const rows = parseRateSheet(
      `${header}\nco,780+,75%,Conventional,30,6.125,2026-10-07,"First Bank, N.A."\nTX,4,2,fha,15,5.99%,2026-10-07,First Bank\n`,
      'sheet.csv',
      'https://lender.example/rates',
    );
    expect(rows).toEqual([
      {
        source: 'First Bank, N.A.',
        sourceKind: 'rate_sheet',
        sourceUrl: 'https://lender.example/rates',
        state: 'CO',
        fico: 1,
        ltv: 1,
        productType: 'conventional',
        loanTerm: 30,
        date: '2026-10-07',
        rate: 6.125,
        distributionSize: null,
      },
      {
        source: 'First Bank',
        sourceKind: 'rate_sheet',
        sourceUrl: 'https://lender.example/rates',
        state: 'TX',
        fico: 4,
        ltv: 2,
        productType: 'fha',
        loanTerm: 15,
        date: '2026-10-07',
        rate: 5.99,
        distributionSize: null,
      },
    ]);
  });

  it('reports every bad row as file:line and rejects the whole sheet', () => {
    const text = [
      header,
      'CO,1,1,conventional,30,6.125,2026-10-07,Bank',
      'ZZ,1,1,conventional,30,6.125,2026-10-07,Bank',
      'CO,6,1,conventional,30,6.125,2026-10-07,Bank',
      'CO,1,3,conventional,30,6.125,2026-10-07,Bank',
      'CO,1,1,heloc,25,6.125,2026-10-07,Bank',
      'CO,1,1,conventional,30,61.25,2026-13-01,Bank',
      'CO,1,1,conventional,30,6.125',
      'CO,1,1,conventional,30,6.25,2026-10-07,Bank',
    ].join('\n');
    let error: RateSheetError | undefined;
    try {
      parseRateSheet(text, 'sheet.csv', 'u');
    } catch (caught) {
      error = caught as RateSheetError;
    }
    expect(error).toBeInstanceOf(RateSheetError);
    expect(error?.errors.map((row) => row.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(error?.message).toMatch(/^sheet\.csv:3: state "ZZ"/);
    expect(error?.message).toContain('sheet.csv:4: fico_tier "6" must be 1-5');
    expect(error?.message).toContain('sheet.csv:6: product_type "heloc"');
    expect(error?.message).toContain('loan_term "25"');
    expect(error?.message).toContain('sheet.csv:7: rate "61.25" must be a percent');
    expect(error?.message).toContain('date "2026-13-01"');
    expect(error?.message).toContain('sheet.csv:8: expected 8 fields, found 6');
    expect(error?.message).toContain('sheet.csv:9: repeats the cell and date of line 2');
  });

  it('rejects a sheet without the required header and one with no rows', () => {
    expect(() => parseRateSheet('state,rate\nCO,6.1\n', 'sheet.csv', 'u')).toThrowError(/sheet\.csv:1: header must name the columns/);
    expect(() => parseRateSheet(`${header}\n`, 'sheet.csv', 'u')).toThrowError(/has no rows/);
  });

  it('does not accept object-prototype names as product types or terms', () => {
    expect(() => parseRateSheet(`${header}\nCO,1,1,constructor,toString,6,2026-10-07,Bank\n`, 's.csv', 'u')).toThrowError(
      /s\.csv:2: product_type "constructor"/,
    );
  });

  it('reads quoted CSV fields with doubled quotes and spots an unclosed quote', () => {
    const quoted = parseRateSheet(`${header}\nCO,1,1,conventional,30,6.125,2026-10-07,"Bank, ""N.A."""\n`, 'sheet.csv', 'u');
    expect(quoted.map((row) => row.source)).toEqual(['Bank, "N.A."']);
    expect(() => parseRateSheet(`${header}\nCO,1,1,conventional,30,6.125,2026-10-07,"Bank\n`, 'sheet.csv', 'u')).toThrowError(
      /^sheet\.csv:2: unclosed quote/,
    );
  });
});
