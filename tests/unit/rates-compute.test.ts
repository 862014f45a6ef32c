// The fallback policy and record arithmetic, on small hand-made series (pure code, no database).
import { describe, expect, it } from 'vitest';
import { changeLine, computeRates, indexOnOrBefore, type LenderObservation, type RatesData } from '../../api/rates/compute.ts';
import { RatesQuerySchema, type DetailedRateRecord } from '../../api/rates/contract.ts';
import { toRatesRequest } from '../../api/rates/params.ts';
import { NotFoundError } from '../../api/platform/errors.ts';

const DOCS = { documentation: 'https://rates.example/docs/api', method: 'https://rates.example/methods/state-rate-estimate' };
const request = (query: Record<string, string> = {}) => toRatesRequest(RatesQuerySchema.parse(query));

/** The loads the data stands for, as a record names them. */
const VERSIONS = [{ dataset: 'pmms', version: '2026-10-08.0123abcd', as_of: '2026-10-08' }];

const data = (lender: LenderObservation[] = []): RatesData => ({
  series: {
    MORTGAGE30US: { dates: ['2026-09-24', '2026-10-01', '2026-10-08'], values: [7.03, 7.28, 7.4] },
    OBMMIC30YF: { dates: ['2026-09-30', '2026-10-01', '2026-10-07'], values: [7.1, 7.2, 7.25] },
    OBMMIFHA30YF: { dates: ['2026-10-01', '2026-10-08'], values: [6.9, 6.85] },
  },
  lender,
  latestDate: '2026-10-08',
  // The day after the survey's 2026-10-08 release: nothing scheduled is missed yet but the benchmark's days.
  today: '2026-10-09',
  versions: VERSIONS,
});

const sheet = (date: string, rate: number, source = 'First Bank'): LenderObservation => ({
  source,
  sourceKind: 'rate_sheet',
  sourceUrl: 'https://bank.example/rates',
  date,
  rate,
  distributionSize: null,
});

describe('rate record computation', () => {
  it('falls back to the most recent covering benchmark and says so', () => {
    const { record, sources } = computeRates(request(), data(), DOCS);
    const detailed = record as DetailedRateRecord;
    expect(detailed.rate_30yr).toBe(7.4);
    expect(detailed.rate).toBe(7.4);
    expect(detailed.loan_term).toBe(30);
    expect(detailed.rate_30yr_last_updated).toBe('2026-10-08');
    expect(detailed.source).toMatch(/Primary Mortgage Market Survey/);
    expect(detailed).toMatchObject({ rate_kind: 'national', tier_specific: true, estimate: null });
    expect(detailed.missing).toEqual([
      'No state adjustment: HMDA loan records are not loaded on this server, so this rate is national, the same in every state.',
    ]);
    expect(detailed.disclaimer).toMatch(/HMDA loan records are not loaded on this server/);
    expect(detailed.rate_change_weekly).toBe(0.12);
    expect(detailed.rate_change_line).toBe('Up 0.12 points from last week');
    expect(detailed.survey_rate).toBe(7.4);
    expect(detailed.national_average_rate).toBe(detailed.survey_rate);
    expect(detailed.index_a_rate).toBe(7.25);
    expect(detailed.index_a_last_updated).toBe('2026-10-07');
    expect(detailed.metadata).toEqual({ api_version: 'v1', documentation: DOCS.documentation });
    expect(sources.map((source) => source.url)).toEqual([
      'https://fred.stlouisfed.org/series/MORTGAGE30US',
      'https://fred.stlouisfed.org/series/OBMMIC30YF',
    ]);
  });

  it('uses the market benchmark when it is more recent than the survey, with a daily week-over-week change', () => {
    const record = computeRates(request({ date: '2026-10-07' }), data(), DOCS).record as DetailedRateRecord;
    expect(record.rate_30yr).toBe(7.25);
    expect(record.rate_change_weekly).toBe(0.15); // 2026-10-07 vs 2026-09-30
    expect(record.survey_rate).toBe(7.28);
  });

  it('prefers the market benchmark over the survey on the same day', () => {
    const record = computeRates(request({ date: '2026-10-01' }), data(), DOCS).record as DetailedRateRecord;
    expect(record.rate_30yr).toBe(7.2);
    expect(record.source).toMatch(/Optimal Blue/);
    expect(record.rate_change_weekly).toBeNull(); // no observation a week before 2026-10-01 within the window
  });

  it('answers a cell without its tier-specific series from the broadest benchmark, labelled not tier-specific', () => {
    for (const [fico, ltv] of [
      ['3', '1'],
      ['5', '2'],
      ['1', '2'],
    ] as const) {
      const record = computeRates(request({ fico, ltv, state: 'TX' }), data(), DOCS).record as DetailedRateRecord;
      expect(record).toMatchObject({ rate: 7.4, tier_specific: false, rate_kind: 'national' });
      expect(record.disclaimer).toMatch(/not specific to the FICO or LTV tier asked for/);
      expect(record.missing[0]).toMatch(/^No benchmark specific to FICO .* is loaded/);
    }
    // The simple form keeps both: the rate is not of the tier asked, and the sentence saying so.
    const simple = computeRates(request({ fico: '3', ltv: '1', state: 'TX', format: 'simple' }), data(), DOCS).record;
    expect(simple).toMatchObject({ rate: 7.4, tier_specific: false });
    expect((simple as { disclaimer: string }).disclaimer).toMatch(/not specific to the FICO or LTV tier asked for/);
    // For a refinance PMMS does not apply: the conforming lock index does.
    const refinance = computeRates(request({ fico: '4', ltv: '2', loan_purpose: 'refinance' }), data(), DOCS).record as DetailedRateRecord;
    expect(refinance).toMatchObject({ rate: 7.25, tier_specific: false });
  });

  it('never invents a figure: a cell no source covers is a 404 saying what is missing', () => {
    expect(() => computeRates(request({ loan_term: '20' }), data(), DOCS)).toThrowError(
      /no national benchmark covering this cell has an observation: the FFIEC Average Prime Offer Rate \(20-year fixed\) is not loaded/,
    );
    expect(() => computeRates(request({ occupancy: 'investment' }), data(), DOCS)).toThrowError(/primary residences only/);
    expect(() => computeRates(request({ property_type: 'condo' }), data(), DOCS)).toThrowError(/single-family/);
    expect(() => computeRates(request({ loan_purpose: 'cash_out_refinance' }), data(), DOCS)).toThrowError(NotFoundError);
  });

  it('uses product-wide indices for FHA at any tier and says they do not vary by tier', () => {
    const record = computeRates(request({ product_type: 'fha', fico: '5', ltv: '2' }), data(), DOCS).record as DetailedRateRecord;
    expect(record.rate_30yr).toBe(6.85);
    expect(record.rate_change_line).toBe('Down 0.05 points from last week');
    expect(record.disclaimer).toMatch(/not specific to the FICO or LTV tier asked for: it does not vary by FICO tier or LTV tier/);
    expect(record.tier_specific).toBe(false);
  });

  it('reads a score below 680 against the FHA and VA indices, which cover every score', () => {
    const record = computeRates(request({ product_type: 'fha', fico: '640' }), data(), DOCS).record as DetailedRateRecord;
    expect(record).toMatchObject({
      rate: 6.85,
      parameters: { fico_tier: 'below 680' },
      parameter_notes: ['A FICO score of 640 is below 680, the lowest published tier.'],
    });
    expect(() => request({ fico: '640' })).toThrowError(/below 680.*product_type=fha, va or usda/);
  });

  it("serves a recent rate-sheet quote for the exact cell before any benchmark, as the state's own figure", () => {
    const lender = [sheet('2026-09-30', 6.5), sheet('2026-10-07', 6.375)];
    const record = computeRates(request({ fico: '3' }), data(lender), DOCS).record as DetailedRateRecord;
    expect(record).toMatchObject({
      rate_30yr: 6.375,
      source: 'First Bank',
      rate_change_weekly: -0.125,
      last_updated: '2026-10-07',
      rate_kind: 'lender_sheet',
      estimate: null,
      missing: [],
    });
    expect(record.sources[0]).toEqual({ name: 'First Bank', url: 'https://bank.example/rates', as_of: '2026-10-07' });
    const { record: simple } = computeRates(request({ format: 'simple', fico: '3' }), data(lender), DOCS);
    expect(simple).toMatchObject({
      rate: 6.375,
      date: '2026-10-07',
      state: 'CO',
      fico_tier: '720-739',
      source: 'First Bank',
      rate_kind: 'lender_sheet',
    });
  });

  it('ignores a rate-sheet quote older than 30 days and falls back to the benchmarks', () => {
    const old = [sheet('2026-08-01', 6.5)];
    expect((computeRates(request(), data(old), DOCS).record as DetailedRateRecord).rate_30yr).toBe(7.4);
    expect((computeRates(request({ fico: '3' }), data(old), DOCS).record as DetailedRateRecord).rate_kind).toBe('national');
  });

  it('answers as of a past day from the observations on or before it, and 404s before the data starts', () => {
    const record = computeRates(request({ date: '2026-10-02' }), data(), DOCS).record as DetailedRateRecord;
    expect(record.last_updated).toBe('2026-10-01');
    expect(() => computeRates(request({ date: '1960-01-01' }), data(), DOCS)).toThrowError(/on or before 1960-01-01/);
  });

  it('writes change lines as sentences', () => {
    expect(changeLine(-0.08)).toBe('Down 0.08 points from last week');
    expect(changeLine(0.06, '2025-09-25')).toBe('Up 0.06 points in the week to 2025-09-25, its latest figure');
    expect(changeLine(0.004)).toBe('Unchanged from last week');
    expect(changeLine(null)).toBeNull();
    expect(indexOnOrBefore(['2026-01-01', '2026-01-08'], '2025-12-31')).toBe(-1);
  });
});

// Optimal Blue's FICO × LTV grid: one series per band, values made up for the arithmetic (the
// integration tests use a fixture in FRED's file layout).
const GRID: Record<string, number> = {
  OBMMIC30YFLVLE80FGE740: 6.1,
  OBMMIC30YFLVLE80FB720A739: 6.2,
  OBMMIC30YFLVLE80FB700A719: 6.3,
  OBMMIC30YFLVLE80FB680A699: 6.4,
  OBMMIC30YFLVGT80FGE740: 6.15,
  OBMMIC30YFLVGT80FB720A739: 6.25,
  OBMMIC30YFLVGT80FB700A719: 6.35,
  OBMMIC30YFLVGT80FB680A699: 6.45,
  OBMMIC30YFLVLE80FLT680: 6.5,
  OBMMIC30YFLVGT80FLT680: 6.55,
};
const withGrid = (date = '2026-10-08', extra: Partial<RatesData['series']> = {}): RatesData => {
  const base = data();
  const series = { ...base.series, ...extra };
  for (const [id, value] of Object.entries(GRID)) {
    (series as Record<string, unknown>)[id] = { dates: ['2026-10-01', date], values: [value + 0.1, value] };
  }
  return { ...base, series };
};

describe('FICO × LTV grid, term and staleness', () => {
  it.each([
    ['1', '1', 'OBMMIC30YFLVLE80FGE740'],
    ['2', '1', 'OBMMIC30YFLVLE80FGE740'],
    ['3', '1', 'OBMMIC30YFLVLE80FB720A739'],
    ['4', '1', 'OBMMIC30YFLVLE80FB700A719'],
    ['5', '1', 'OBMMIC30YFLVLE80FB680A699'],
    ['1', '2', 'OBMMIC30YFLVGT80FGE740'],
    ['2', '2', 'OBMMIC30YFLVGT80FGE740'],
    ['3', '2', 'OBMMIC30YFLVGT80FB720A739'],
    ['4', '2', 'OBMMIC30YFLVGT80FB700A719'],
    ['5', '2', 'OBMMIC30YFLVGT80FB680A699'],
  ])('answers FICO tier %s, LTV tier %s from %s, labelled national', (fico, ltv, series) => {
    const record = computeRates(request({ fico, ltv, state: 'TX' }), withGrid(), DOCS).record as DetailedRateRecord;
    expect(record.rate).toBe(GRID[series]);
    expect(record.rate_30yr).toBe(GRID[series]);
    expect(record.last_updated).toBe('2026-10-08');
    expect(record.source).toMatch(
      /^Optimal Blue Mortgage Market Indices \(30-year fixed conforming, LTV [≤>] 80, FICO .*\), national, via FRED$/,
    );
    expect(record.disclaimer).toMatch(/This is the national Optimal Blue/);
    expect(record.disclaimer).toMatch(/the same in every state/);
    expect(record.tier_specific).toBe(true);
    expect(record.sources[0]?.url).toBe(`https://fred.stlouisfed.org/series/${series}`);
    expect(record.rate_change_weekly).toBe(-0.1);
  });

  it("prefers the cell's own grid series over the broader survey and benchmark, even when they are newer", () => {
    const record = computeRates(request(), withGrid('2026-10-07'), DOCS).record as DetailedRateRecord;
    expect(record.rate).toBe(6.1); // survey 7.40 of 2026-10-08 is newer but covers a wider population
    expect(record.source).toMatch(/LTV ≤ 80, FICO 740 or higher/);
  });

  it('keeps rate_30yr the 30-year figure when loan_term=15 and puts the 15-year figure in rate', () => {
    const fifteen = withGrid('2026-10-08', { MORTGAGE15US: { dates: ['2026-10-01', '2026-10-08'], values: [6.4, 6.5] } });
    const record = computeRates(request({ loan_term: '15' }), fifteen, DOCS).record as DetailedRateRecord;
    expect(record).toMatchObject({
      rate: 6.5,
      loan_term: 15,
      rate_30yr: 6.1,
      rate_30yr_last_updated: '2026-10-08',
      last_updated: '2026-10-08',
    });
    expect(record.parameters.loan_term).toBe('15-year');
    expect(record.source).toMatch(/15-year fixed rate/);
    expect(record.disclaimer).toMatch(/rate_30yr is the 30-year rate of the same cell \(Optimal Blue/);
    expect(record.sources.map((source) => source.url)).toContain('https://fred.stlouisfed.org/series/OBMMIC30YFLVLE80FGE740');
    // A 15-year cell whose 30-year cell no source covers: rate_30yr is empty, and says why.
    const lone = computeRates(
      request({ loan_term: '15', fico: '3' }),
      { ...fifteen, series: { OBMMIC15YF: { dates: ['2026-10-08'], values: [5.9] } } },
      DOCS,
    ).record as DetailedRateRecord;
    expect(lone).toMatchObject({ rate: 5.9, rate_30yr: null, rate_30yr_last_updated: null });
    expect(lone.disclaimer).toMatch(/No source covers the 30-year rate of this cell/);
    const simple = computeRates(request({ loan_term: '15', format: 'simple' }), fifteen, DOCS).record;
    expect(simple).toMatchObject({ rate: 6.5, loan_term: 15 });
  });

  it("judges each figure's freshness against today and its publisher's schedule, in fields and in a sentence", () => {
    // The benchmark stops a year before the survey, as in the official mirror.
    const old: RatesData = {
      ...data(),
      series: { ...data().series, OBMMIC30YF: { dates: ['2025-09-24', '2025-09-25'], values: [6.3, 6.26] } },
    };
    const record = computeRates(request(), old, DOCS).record as DetailedRateRecord;
    expect(record.rate).toBe(7.4);
    expect(record.freshness.map((entry) => [entry.field, entry.stale])).toEqual([
      ['rate', false],
      ['rate_30yr', false],
      ['survey_rate', false],
      ['national_average_rate', false],
      ['index_a_rate', true],
    ]);
    expect(record.stale).toHaveLength(1);
    expect(record.stale[0]).toMatchObject({
      field: 'index_a_rate',
      as_of: '2025-09-25',
      checked_on: '2026-10-09',
      age_days: 379,
      stale: true,
    });
    expect(record.disclaimer).toMatch(
      /Not current: Optimal Blue Mortgage Market Indices \(30-year fixed conforming\) is from 2025-09-25, 379 days before 2026-10-09; \d+ scheduled releases/,
    );
    // On 2026-11-27 the survey of 2026-10-08 has missed seven weekly releases (Thanksgiving's moved to the Wednesday).
    const late = computeRates(request(), { ...data(), today: '2026-11-27' }, DOCS).record as DetailedRateRecord;
    const survey = late.freshness.find((entry) => entry.field === 'survey_rate');
    expect(survey).toMatchObject({ as_of: '2026-10-08', age_days: 50, stale: true, missed_release_count: 7 });
    expect(survey?.missed_releases).toEqual([
      '2026-10-15',
      '2026-10-22',
      '2026-10-29',
      '2026-11-05',
      '2026-11-12',
      '2026-11-19',
      '2026-11-25',
    ]);
    const simple = computeRates(request({ format: 'simple' }), { ...data(), today: '2026-11-27' }, DOCS).record;
    expect(simple).toMatchObject({ rate: 7.4, freshness: { field: 'rate', as_of: '2026-10-08', stale: true, missed_release_count: 7 } });
    expect((simple as { disclaimer: string }).disclaimer).toMatch(/2026-10-08|October 8, 2026/);
    // A change of a figure that is not current names its week, never "last week".
    const notCurrent = computeRates(request({}), { ...data(), today: '2026-11-27' }, DOCS).record as DetailedRateRecord;
    expect(notCurrent.rate_change_line).toMatch(/^(Up|Down|Unchanged) .*in the week to 2026-10-08, its latest figure$/);
    // A past `date` is judged against that day, not today.
    const then = computeRates(request({ date: '2026-10-08' }), { ...data(), today: '2026-11-27' }, DOCS).record as DetailedRateRecord;
    expect(then.freshness.find((entry) => entry.field === 'survey_rate')).toMatchObject({
      checked_on: '2026-10-08',
      stale: false,
      age_days: 0,
    });
  });

  it('answers USDA loans from the USDA index at any tier, and never tells a reader to run a command', () => {
    const usda: RatesData = { ...data(), series: { ...data().series, OBMMIUSDA30YF: { dates: ['2026-10-08'], values: [6.2] } } };
    const record = computeRates(request({ product_type: 'usda', fico: '5', ltv: '2' }), usda, DOCS).record as DetailedRateRecord;
    expect(record.rate).toBe(6.2);
    expect(record.source).toMatch(/30-year fixed USDA/);
    const queries: Record<string, string>[] = [
      { product_type: 'usda' },
      { loan_term: '10' },
      { date: '1960-01-01' },
      { occupancy: 'investment' },
    ];
    for (const query of queries) {
      expect(() => computeRates(request(query), data(), DOCS)).toThrowError(NotFoundError);
      try {
        computeRates(request(query), data(), DOCS);
      } catch (error) {
        expect((error as Error).message).not.toMatch(/npm|sync/);
      }
    }
  });
});
