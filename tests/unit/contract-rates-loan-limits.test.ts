// Rates and loan limits from their contracts, without a database: each recorded answer
// (tests/fixtures/contracts, captured from the real services over synced data) fits its contract with
// nothing left over; each MCP handler, called as the SDK calls it, hands the service the canonical
// form of natural arguments (names, cases, numbers as text, scores and percents as tiers, boroughs)
// and refuses unknown ones naming the known ones. The loan-limits service answers from its snapshot
// and remembered answers, reading the database again only when a dataset is reloaded.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import type { DatasetRecord, DatasetStatus } from '../../api/platform/datasets.ts';
import type { Queryable } from '../../api/platform/db/database.ts';
import { getMortgageRatesTool } from '../../api/mcp/tools/get-mortgage-rates.ts';
import { getLoanLimitsTool } from '../../api/mcp/tools/get-loan-limits.ts';
import { DetailedRateRecordSchema, RatesQuerySchema, type DetailedRateRecord, type RatesQuery } from '../../api/rates/contract.ts';
import { toRatesRequest } from '../../api/rates/params.ts';
import {
  LoanLimitsAnswerSchema,
  LoanLimitsQuerySchema,
  type LoanLimitsAnswer,
  type LoanLimitsQuery,
} from '../../api/loan-limits/contract.ts';
import { createLoanLimitsService } from '../../api/loan-limits/service.ts';
import { callLikeTheSdk, expectExactly, resultText, answering, serviceStub, toolContext } from '../support/contract-tool.ts';
import { createDatasetVersions } from '../../api/platform/dataset-versions.ts';

const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'contracts', name), 'utf8'));

/** get_mortgage_rates' context: a rates service answering the recording, noting what it was asked; series is never reached for a current record. */
function ratesContext(record: DetailedRateRecord) {
  const { method, asked } = answering<Omit<RatesQuery, 'format'>, DetailedRateRecord>(record);
  const rates = serviceStub('rates', { detailed: method });
  return { context: toolContext(getMortgageRatesTool, { rates, series: serviceStub('series', {}) }), asked };
}

/** get_loan_limits' context: a loan-limits service answering the recording, noting what it was asked. */
function limitsContext(answer: LoanLimitsAnswer) {
  const { method, asked } = answering<LoanLimitsQuery, LoanLimitsAnswer>(answer);
  const loanLimits = serviceStub('loanLimits', { answer: method });
  return { context: toolContext(getLoanLimitsTool, { loanLimits, series: serviceStub('series', {}) }), asked };
}

describe('get_mortgage_rates from the rates contract', () => {
  const record = expectExactly(DetailedRateRecordSchema, fixture('rates-record.json'));
  /** The cell and labels a query asks for, without how it was written. */
  const cellOf = (query: Omit<RatesQuery, 'format'>) => {
    const { notes: _notes, ...cell } = toRatesRequest({ ...query, format: 'detailed' });
    return cell;
  };
  const canonical = cellOf(
    RatesQuerySchema.omit({ format: true }).parse({ state: 'TX', fico: 2, ltv: 1, product_type: 'conventional', loan_term: 30 }),
  );

  it('passes the recorded detailed record through as structuredContent, the same record GET /rates answers', async () => {
    const { context } = ratesContext(record);
    const result = await callLikeTheSdk(getMortgageRatesTool, context, { state: 'TX', fico: 2 });
    expect(expectExactly(DetailedRateRecordSchema, result.structuredContent)).toEqual(record);
    // Only the parts of the cell the caller gave: no LTV was asked, so none is named as if it were.
    expect(resultText(result)).toMatch(/^30-year Conventional rate, TX, FICO 740-779: 7\.4% as of 2026-10-08/);
    expect(resultText(result)).toContain(
      'Source: Freddie Mac Primary Mortgage Market Survey (30-year fixed rate), national, via FRED, https://fred.stlouisfed.org/series/MORTGAGE30US (as of 2026-10-08)',
    );
  });

  it.each([
    { state: 'Texas', fico: 2 },
    { state: 'tx', fico: '2' },
    { state: ' TEXAS ', fico: 760 },
    { state: 'TX', fico: '740', ltv: 80 },
    { state: 'TX', fico: 779, down_payment: 20 },
    { state: 'TX', fico: 2, down_payment: '25%', ltv: '1' },
    { state: 'TX', fico: 2, loan_term: '30', product_type: 'Conventional' },
    {
      state: 'TX',
      fico: 2,
      loan_term: '30-year',
      product_type: 'CONFORMING',
      occupancy: 'Primary residence',
      property_type: 'single family',
      loan_purpose: 'Purchase',
    },
  ])('asks the service for the canonical cell given %j', async (args) => {
    const { context, asked } = ratesContext(record);
    const result = await callLikeTheSdk(getMortgageRatesTool, context, args);
    expect(result.isError, resultText(result)).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(cellOf(asked[0]!)).toEqual(canonical);
  });

  it.each([
    [{ fico: 740 }, ['A FICO score of 740 is in tier 2 (740-779).']],
    [{ fico: '1' }, []],
    [{ ltv: 90 }, ['An LTV of 90% is in LTV tier 2 (95%).']],
    [
      { down_payment: 3.5, fico: 700 },
      ['A FICO score of 700 is in tier 4 (700-719).', 'A 3.5% down payment is an LTV of 96.5%, in LTV tier 2 (95%).'],
    ],
  ])('says how %j was read as tiers', async (args, notes) => {
    const { context, asked } = ratesContext(record);
    await callLikeTheSdk(getMortgageRatesTool, context, args);
    expect(toRatesRequest({ ...asked[0]!, format: 'detailed' }).notes).toEqual(notes);
  });

  it('puts those notes first in the text', async () => {
    const noted = { ...record, parameter_notes: ['A FICO score of 760 is in tier 2 (740-779).'] };
    const { context } = ratesContext(noted);
    const result = await callLikeTheSdk(getMortgageRatesTool, context, { state: 'TX', fico: 760 });
    expect(resultText(result).split('\n')[0]).toBe('A FICO score of 760 is in tier 2 (740-779).');
  });

  it('refuses unknown arguments naming the known ones, never answering the default cell', async () => {
    const { context, asked } = ratesContext(record);
    const result = await getMortgageRatesTool.call({ state: 'FL', credit_score: 760, down_payment: 20 }, context);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      "Unknown argument 'credit_score'. Known arguments: state, fico, ltv, down_payment, product_type, occupancy, property_type, loan_term, loan_purpose, date, as_of, from, to.",
    );
    expect(asked).toEqual([]);
  });

  it.each([
    [{ state: 'Narnia' }, /^Invalid value for 'state': "Narnia"\. Give a 2-letter code or a state name/],
    [{ fico: 250 }, /^Invalid value for 'fico': 250\. Give a FICO tier 1-5/],
    [{ ltv: 20 }, /^Invalid value for 'ltv': 20\. An LTV of 20% is ambiguous: it reads like a down payment/],
    [{ fico: 6 }, /^Invalid value for 'fico': 6\. Give a FICO tier 1-5/],
    [{ loan_term: 25 }, /^Invalid value for 'loan_term': 25\. Give the term in years: 30, 20, 15 or 10/],
    [{ product_type: 'heloc' }, /^Invalid value for 'product_type': "heloc"\. Valid values: conventional, fha, va, jumbo, usda\.$/],
    [{ date: 'yesterday' }, /^Invalid value for 'date': "yesterday"\. Give a real calendar day written YYYY-MM-DD, e\.g\. "2026-03-18"\.$/],
    [{ format: 'simple' }, /^Unknown argument 'format'\. Known arguments: state, fico,/],
  ])('refuses %j with one message saying what is valid', async (args, message) => {
    const { context } = ratesContext(record);
    const result = await getMortgageRatesTool.call(args, context);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(message);
  });

  it('refuses an ltv and a down payment that name different tiers, in the rule every face passes through', () => {
    const query = RatesQuerySchema.parse({ ltv: 1, down_payment: 5 });
    expect(() => toRatesRequest(query)).toThrow(
      "'ltv' (1) and 'down_payment' (5) name different LTV tiers (75% and 95%); give one of them.",
    );
    expect(toRatesRequest(RatesQuerySchema.parse({ ltv: 80, down_payment: 20 })).ltv).toBe(1);
    // A score below every tier: only the FHA, VA and USDA indices cover it.
    expect(() => toRatesRequest(RatesQuerySchema.parse({ fico: 640 }))).toThrow(
      /^Invalid value for 'fico': 640\. A FICO score of 640 is below 680/,
    );
    expect(toRatesRequest(RatesQuerySchema.parse({ fico: 640, product_type: 'VA' })).fico).toBeNull();
    expect(() => toRatesRequest(RatesQuerySchema.parse({ date: '2026-11-28' }), '2026-11-27')).toThrow(
      /'date' must not be after today \(2026-11-27\)/,
    );
  });

  it('takes the query schema without `format`, plus the history range of the series, as the input schema', () => {
    expect(Object.keys(getMortgageRatesTool.strictInput.shape)).toEqual([
      ...Object.keys(RatesQuerySchema.shape).filter((name) => name !== 'format'),
      'from',
      'to',
    ]);
  });
});

describe('get_loan_limits from the loan-limits contract', () => {
  const answer = expectExactly(LoanLimitsAnswerSchema, fixture('loan-limits-answer.json'));
  const canonical = LoanLimitsQuerySchema.parse({ state: 'NY', county: 'Kings County', year: 2025, loan_type: 'fha', units: 1 });

  it("passes the recorded answer through as structuredContent, with each program's year in the text", async () => {
    const { context } = limitsContext(answer);
    const result = await callLikeTheSdk(getLoanLimitsTool, context, { state: 'NY', county: 'Kings County' });
    expect(expectExactly(LoanLimitsAnswerSchema, result.structuredContent)).toEqual(answer);
    expect(resultText(result)).toMatch(
      /^Loan limits \(conforming 2026, FHA 2025\), 1-unit shown:\nKings County, NY \(36047\): conforming \$1,209,750; FHA \$1,209,750; VA \$1,209,750; USDA: no loan limit/,
    );
    expect(resultText(result)).toContain(
      'Source: Federal Housing Finance Agency (FHFA), https://www.fhfa.gov/data/conforming-loan-limit (as of 2026-01-01)',
    );
  });

  it.each([
    { state: 'new york', county: 'Brooklyn', year: '2025', loan_type: 'FHA', units: '1' },
    { state: 'NY', county: 'brooklyn', year: 2025, loan_type: 'Fha', units: 1 },
    { state: 'ny', county: 'Kings County', year: ' 2025 ', loan_type: ' fha ', units: 1 },
    { state: 'New York', county: 'Borough of Brooklyn', year: 2025, loan_type: 'fha', units: '1' },
  ])('asks the service the canonical query given %j', async (args) => {
    const { context, asked } = limitsContext(answer);
    const result = await callLikeTheSdk(getLoanLimitsTool, context, args);
    expect(result.isError, resultText(result)).toBeFalsy();
    expect(asked).toEqual([canonical]);
  });

  it('refuses unknown arguments naming the known ones, and a missing state naming it', async () => {
    const { context, asked } = limitsContext(answer);
    expect(resultText(await getLoanLimitsTool.call({ state: 'CA', zip: '90001' }, context))).toBe(
      "Unknown argument 'zip'. Known arguments: state, county, year, loan_type, units, as_of, from_year, to_year, offset.",
    );
    expect(resultText(await getLoanLimitsTool.call({ county: 'Denver' }, context))).toMatch(
      /^Missing 'state'\. Give a 2-letter code or a name/,
    );
    expect(resultText(await getLoanLimitsTool.call({ state: 'CO', loan_type: 'jumbo' }, context))).toBe(
      'Invalid value for \'loan_type\': "jumbo". Valid values: conforming, fha, va, usda, all.',
    );
    expect(resultText(await getLoanLimitsTool.call({ state: 'CO', year: 'last' }, context))).toBe(
      'Invalid value for \'year\': "last". Give a 4-digit year from 1972 to 2100, e.g. 2026.',
    );
    expect(asked).toEqual([]);
  });

  it('takes the query schema, plus the history range of the series and the page offset, as the input schema', () => {
    expect(Object.keys(getLoanLimitsTool.strictInput.shape)).toEqual([
      ...Object.keys(LoanLimitsQuerySchema.shape),
      'from_year',
      'to_year',
      'offset',
    ]);
  });
});

describe('the loan-limits service answers from memory', () => {
  // A database holding two counties of Delaware and one year of each program, counting its reads.
  function fakeDatabase() {
    const reads: string[] = [];
    const db: Queryable = {
      async query<Row>(sql: string, params?: readonly unknown[]) {
        const table = /FROM (\w+)/.exec(sql)?.[1] ?? '';
        reads.push(params ? `${table} ${params.join(' ')}` : table);
        const rows: Record<string, unknown>[] =
          table === 'counties'
            ? [
                { fips: '10001', state: 'DE', state_fips: '10', name: 'Kent County', match_key: 'KENTCOUNTY', kind: 'county', note: null },
                {
                  fips: '10003',
                  state: 'DE',
                  state_fips: '10',
                  name: 'New Castle County',
                  match_key: 'NEWCASTLECOUNTY',
                  kind: 'county',
                  note: null,
                },
              ]
            : table === 'loan_limit_national'
              ? [
                  {
                    program: 'conforming',
                    year: 2026,
                    kind: 'floor',
                    limit_1: 832_750,
                    limit_2: 1_066_250,
                    limit_3: 1_288_800,
                    limit_4: 1_601_750,
                  },
                  {
                    program: 'conforming',
                    year: 2026,
                    kind: 'ceiling',
                    limit_1: 1_249_125,
                    limit_2: 1_599_375,
                    limit_3: 1_933_200,
                    limit_4: 2_402_625,
                  },
                ]
              : sql.includes('DISTINCT')
                ? [
                    { program: 'fha', year: 2025 },
                    { program: 'conforming', year: 2026 },
                  ]
                : params?.[0] === 'conforming'
                  ? [
                      {
                        fips: '10001',
                        state: 'DE',
                        source_name: 'KENT',
                        cbsa: '20100',
                        limit_1: 832_750,
                        limit_2: 1_066_250,
                        limit_3: 1_288_800,
                        limit_4: 1_601_750,
                        limit_type: null,
                      },
                      {
                        fips: '10003',
                        state: 'DE',
                        source_name: 'NEW CASTLE',
                        cbsa: '37980',
                        limit_1: 832_750,
                        limit_2: 1_066_250,
                        limit_3: 1_288_800,
                        limit_4: 1_601_750,
                        limit_type: null,
                      },
                    ]
                  : [
                      {
                        fips: '10001',
                        state: 'DE',
                        source_name: 'KENT',
                        cbsa: '20100',
                        limit_1: 524_225,
                        limit_2: 671_200,
                        limit_3: 811_275,
                        limit_4: 1_008_300,
                        limit_type: 'S',
                      },
                    ];
        return { rows: rows as Row[], rowCount: rows.length };
      },
    };
    return { db, reads };
  }

  function fakeDatasets(loadedAt: { value: string }): DatasetStatus {
    const record = (name: string): DatasetRecord => ({
      name,
      asOf: '2026-01-01',
      sourceUrl: `https://publisher.example/${name}`,
      checksum: null,
      rows: 2,
      loadedAt: loadedAt.value,
    });
    let list: DatasetRecord[] | undefined;
    let listedAt = '';
    return {
      async list() {
        if (!list || listedAt !== loadedAt.value) {
          list = ['counties', 'loan_limits_conforming', 'loan_limits_fha'].map(record);
          listedAt = loadedAt.value;
        }
        return list;
      },
      require: async (name) => record(name),
      availability: async () => ({ state: 'loaded' }),
      overview: async () => [],
      invalidate: () => undefined,
      onInvalidate: () => () => undefined,
    };
  }

  it('reads each table once, remembers each answer, and reads again after a dataset is reloaded', async () => {
    const { db, reads } = fakeDatabase();
    const loadedAt = { value: '2026-11-20T06:30:00.000Z' };
    const datasets = fakeDatasets(loadedAt);
    const clock = () => new Date('2026-11-22T12:00:00Z');
    const service = createLoanLimitsService({ db, datasets, versions: createDatasetVersions({ db, datasets, clock }), clock });
    const kent = LoanLimitsQuerySchema.parse({ state: 'Delaware', county: 'kent' });

    const first = await service.answerJson(kent);
    expect(JSON.parse(first)).toMatchObject({
      years: { conforming: 2026, fha: 2025 },
      counties: [
        {
          fips: '10001',
          county: 'Kent County',
          conforming: { year: 2026, limits: { '1': 832_750 }, tier: 'baseline' },
          fha: { year: 2025, limits: { '1': 524_225 }, tier: 'standard' },
        },
      ],
    });
    expect(reads.sort()).toEqual(['counties', 'loan_limit_national', 'loan_limits', 'loan_limits conforming 2026', 'loan_limits fha 2025']);

    // The same question, written otherwise: the same serialised answer, no read.
    expect(await service.answerJson(LoanLimitsQuerySchema.parse({ state: 'de', county: 'Kent County' }))).toBe(first);
    // Another county of a year already read: composed from memory.
    const newCastle = await service.answer(
      LoanLimitsQuerySchema.parse({ state: 'DE', county: '10003', year: '2026', loan_type: 'conforming' }),
    );
    expect(newCastle.counties[0]?.conforming?.limits).toEqual({ '1': 832_750, '2': 1_066_250, '3': 1_288_800, '4': 1_601_750 });
    expect(Object.isFrozen(newCastle.counties[0])).toBe(true);
    expect(reads).toHaveLength(5);

    loadedAt.value = '2026-11-23T06:30:00.000Z';
    await service.answerJson(kent);
    expect(reads).toHaveLength(10);
  });

  it('answers USDA alone without reading any county file, in one year', async () => {
    const { db, reads } = fakeDatabase();
    const datasets = fakeDatasets({ value: 'x' });
    const clock = () => new Date('2026-11-22T12:00:00Z');
    const service = createLoanLimitsService({ db, datasets, versions: createDatasetVersions({ db, datasets, clock }), clock });
    const usda = await service.answer(LoanLimitsQuerySchema.parse({ state: 'DE', county: 'Kent', loan_type: 'USDA' }));
    expect(usda.counties[0]?.usda).toMatchObject({ available: false, limits: null });
    expect(usda.notes[0]).toBe('Limits apply to loans acquired or endorsed in calendar year 2026 (effective January 1).');
    expect(reads.filter((read) => read.startsWith('loan_limits '))).toEqual([]);
  });
});
