// The fallback policy and record arithmetic, on small hand-made series (pure code, no database).
import { describe, expect, it } from 'vitest';
import { changeLine, computeRates, indexOnOrBefore, type DetailedRecord, type LenderObservation, type RatesData } from '../../api/rates/compute.ts';
import { RatesQuerySchema, toRatesRequest } from '../../api/rates/params.ts';
import { NotFoundError } from '../../api/platform/http/errors.ts';

const DOCS = 'https://rates.example/docs/api';
const request = (query: Record<string, string> = {}) => toRatesRequest(RatesQuerySchema.parse(query));

const data = (lender: LenderObservation[] = []): RatesData => ({
  series: {
    MORTGAGE30US: { dates: ['2026-09-24', '2026-10-01', '2026-10-08'], values: [7.03, 7.28, 7.4] },
    OBMMIC30YF: { dates: ['2026-09-30', '2026-10-01', '2026-10-07'], values: [7.1, 7.2, 7.25] },
    OBMMIFHA30YF: { dates: ['2026-10-01', '2026-10-08'], values: [6.9, 6.85] },
  },
  lender,
  latestDate: '2026-10-08',
});

const checker = (date: string, rate: number, size = 12): LenderObservation => ({
  source: 'CFPB Rate Checker', sourceKind: 'rate_checker', sourceUrl: 'https://rc.example/?state=CO', date, rate, distributionSize: size,
});

describe('rate record computation', () => {
  it('falls back to the most recent covering benchmark and says so', () => {
    const { record, sources } = computeRates(request(), data(), DOCS);
    const detailed = record as DetailedRecord;
    expect(detailed.rate_30yr).toBe(7.4);
    expect(detailed.source).toMatch(/Primary Mortgage Market Survey/);
    expect(detailed.disclaimer).toMatch(/No state or lender rate is loaded for CO/);
    expect(detailed.rate_change_weekly).toBe(0.12);
    expect(detailed.rate_change_line).toBe('Up 0.12 points from last week');
    expect(detailed.survey_rate).toBe(7.4);
    expect(detailed.national_average_rate).toBe(detailed.survey_rate);
    expect(detailed.index_a_rate).toBe(7.25);
    expect(detailed.index_a_last_updated).toBe('2026-10-07');
    expect(detailed.metadata).toEqual({ api_version: 'v1', documentation: DOCS });
    expect(sources.map((source) => source.url)).toEqual([
      'https://fred.stlouisfed.org/series/MORTGAGE30US',
      'https://fred.stlouisfed.org/series/OBMMIC30YF',
    ]);
  });

  it('uses the market benchmark when it is more recent than the survey, with a daily week-over-week change', () => {
    const record = computeRates(request({ date: '2026-10-07' }), data(), DOCS).record as DetailedRecord;
    expect(record.rate_30yr).toBe(7.25);
    expect(record.rate_change_weekly).toBe(0.15); // 2026-10-07 vs 2026-09-30
    expect(record.survey_rate).toBe(7.28);
  });

  it('prefers the market benchmark over the survey on the same day', () => {
    const record = computeRates(request({ date: '2026-10-01' }), data(), DOCS).record as DetailedRecord;
    expect(record.rate_30yr).toBe(7.2);
    expect(record.source).toMatch(/Optimal Blue/);
    expect(record.rate_change_weekly).toBeNull(); // no observation a week before 2026-10-01 within the window
  });

  it('never invents a FICO/LTV adjustment: an uncovered cell is a 404 saying what is missing', () => {
    expect(() => computeRates(request({ fico: '3' }), data(), DOCS)).toThrowError(NotFoundError);
    expect(() => computeRates(request({ ltv: '2' }), data(), DOCS)).toThrowError(/no national benchmark covers this cell/);
    expect(() => computeRates(request({ occupancy: 'investment' }), data(), DOCS)).toThrowError(/primary residences only/);
    expect(() => computeRates(request({ property_type: 'condo' }), data(), DOCS)).toThrowError(/single-family/);
    expect(() => computeRates(request({ loan_purpose: 'cash_out_refinance' }), data(), DOCS)).toThrowError(NotFoundError);
  });

  it('uses product-wide indices for FHA at any tier and says they do not vary by tier', () => {
    const record = computeRates(request({ product_type: 'fha', fico: '5', ltv: '2' }), data(), DOCS).record as DetailedRecord;
    expect(record.rate_30yr).toBe(6.85);
    expect(record.rate_change_line).toBe('Down 0.05 points from last week');
    expect(record.disclaimer).toMatch(/does not vary by state, FICO tier or LTV tier/);
  });

  it('serves a recent state/lender observation for the exact cell before any benchmark', () => {
    const lender = [checker('2026-09-30', 6.5), checker('2026-10-07', 6.375, 23)];
    const record = computeRates(request({ fico: '3' }), data(lender), DOCS).record as DetailedRecord;
    expect(record.rate_30yr).toBe(6.375);
    expect(record.source).toBe('CFPB Rate Checker (most common of 23 lender offers)');
    expect(record.rate_change_weekly).toBe(-0.125);
    expect(record.last_updated).toBe('2026-10-07');
    expect(record.sources[0]).toEqual({ name: record.source, url: 'https://rc.example/?state=CO', as_of: '2026-10-07' });
  });

  it('ignores a lender observation older than 30 days and falls back or 404s', () => {
    const stale = [checker('2026-08-01', 6.5)];
    expect((computeRates(request(), data(stale), DOCS).record as DetailedRecord).rate_30yr).toBe(7.4);
    expect(() => computeRates(request({ fico: '3' }), data(stale), DOCS)).toThrowError(/older than 30 days/);
  });

  it("prefers the operator's rate sheet over the Rate Checker on the same day", () => {
    const sheet: LenderObservation = { source: 'First Bank', sourceKind: 'rate_sheet', sourceUrl: 'file:sheet.csv', date: '2026-10-07', rate: 6.25, distributionSize: null };
    const { record } = computeRates(request({ format: 'simple' }), data([checker('2026-10-07', 6.375), sheet]), DOCS);
    expect(record).toEqual({ rate: 6.25, date: '2026-10-07', state: 'CO', fico_tier: '780+', ltv_tier: '75%', source: 'First Bank' });
  });

  it('answers as of a past day from the observations on or before it, and 404s before the data starts', () => {
    const record = computeRates(request({ date: '2026-10-02' }), data(), DOCS).record as DetailedRecord;
    expect(record.last_updated).toBe('2026-10-01');
    expect(() => computeRates(request({ date: '1960-01-01' }), data(), DOCS)).toThrowError(/on or before 1960-01-01/);
  });

  it('writes change lines as sentences', () => {
    expect(changeLine(-0.08)).toBe('Down 0.08 points from last week');
    expect(changeLine(0.004)).toBe('Unchanged from last week');
    expect(changeLine(null)).toBeNull();
    expect(indexOnOrBefore(['2026-01-01', '2026-01-08'], '2025-12-31')).toBe(-1);
  });
});
