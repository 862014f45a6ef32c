// The four county calendars users checked us against: Cook (IL), Franklin (OH), Fulton and Gwinnett
// (GA) answer from the dates their collectors published. The expected escrow months come from a
// projection written here, over the dates as the collectors' pages give them, not from the engine.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CountyOverrideSchema, SCHEDULES_FILE, servedSchedule } from '../../api/escrow/schedules.ts';
import { createEscrowService, type EscrowService } from '../../api/escrow/service.ts';
import { EscrowQuerySchema, type EscrowAnswer } from '../../api/escrow/contract.ts';
import { parseOrThrow } from '../../api/platform/validation.ts';
import { MONTH_NAMES } from '../../api/escrow/engine.ts';

/** A request as every face reads it: parsed by the escrow contract, then answered. */
const ask = (service: EscrowService, input: Record<string, unknown>): EscrowAnswer =>
  service.answer(parseOrThrow(EscrowQuerySchema, input, 'query'));

const service = createEscrowService({ sourceDir: undefined, clock: () => new Date('2026-11-24T12:00:00Z') });

/** A payment as the collector announced it: its due date (YYYY-MM-DD, or YYYY-MM) and its share of the year in months. */
interface Announced {
  due: string;
  months: number;
}

/**
 * Escrow months to collect at closing, walked the way the first escrow analysis runs: a deposit of
 * one month every month from the first payment (closing + 2), each announced payment leaving in its
 * month, and a two-month cushion kept at the lowest point.
 */
function handProjection(payments: readonly Announced[], closingMonth: number): number {
  const paidIn = (month: number) =>
    payments.filter((payment) => Number(payment.due.slice(5, 7)) === month).reduce((sum, payment) => sum + payment.months, 0);
  let balance = 0;
  let lowest = 0;
  for (let step = 0; step < 12; step += 1) {
    const month = ((closingMonth + 1 + step) % 12) + 1;
    balance += 1 - paidIn(month);
    lowest = Math.min(lowest, balance);
  }
  return Math.max(0, Math.ceil(2 - lowest - 1e-9));
}

function expectAnsweredFrom(result: EscrowAnswer, payments: readonly Announced[], url: string, taxYear: string): void {
  expect(result.isCountySpecific).toBe(true);
  MONTH_NAMES.forEach((name, index) => expect(result.allMonths[name], `closing in ${name}`).toBe(handProjection(payments, index + 1)));
  expect(result.escrowMonths).toBe(handProjection(payments, result.closingMonth));
  expect(result.taxSchedule.notes).toContain(url);
  expect(result.taxSchedule.notes).toContain(`tax year ${taxYear}`);
  expect(result.sources.map((source) => source.url)).toContain(url);
}

describe('county calendars answered from the collector', () => {
  it('Cook County, IL: tax year 2024 bills, due March 4 and December 15, 2025', () => {
    // Cook County Treasurer, as reported by CBS News Chicago and the Maine Township Assessor:
    // the first installment (55% of the prior year's tax) due 2025-03-04, the second 2025-12-15.
    const taxYear2024: Announced[] = [
      { due: '2025-03-04', months: 6.6 },
      { due: '2025-12-15', months: 5.4 },
    ];
    const result = ask(service, { state: 'IL', county: 'Cook County', closing_month: 9 });
    expectAnsweredFrom(
      result,
      taxYear2024,
      'https://www.cbsnews.com/chicago/news/cook-county-property-tax-bills-second-installment-friday/',
      '2024',
    );
    expect(result.taxSchedule.disbursementMonths).toEqual(['March', 'December']);
    // A September closing: the statute's March 1 and August 1 gave 4 months; the bills people pay give 9.
    expect(
      handProjection(
        [
          { due: '2025-03-01', months: 6.6 },
          { due: '2025-08-01', months: 5.4 },
        ],
        9,
      ),
    ).toBe(4);
    expect(result.escrowMonths).toBe(9);
    // The partial tax year 2025 is reported, not guessed.
    expect(result.taxSchedule.notes).toMatch(/Tax year 2025 so far: installment 1 April 1, 2026, installment 2 not yet published/);
  });

  it("Cook County's 55%/45% installments: the exact fractional figure beside the whole months, and the dollars", () => {
    // A January closing: first payment March, when the 55% installment (6.6 months) leaves: 1 − 6.6 = −5.6, so 2 + 5.6 = 7.6 months.
    const result = ask(service, { state: 'IL', county: '17031', closing_month: 'January', annual_tax: '6000' });
    expect(result.escrowMonthsExact).toBeCloseTo(7.6, 9);
    expect(result.escrowMonths).toBe(8);
    expect(result.escrowMonthsRounding).toContain('gives 7.6 months');
    expect(result.escrowMonthsRounding).toContain('rounded up to 8');
    // $6,000 a year is $500 a month: 8 months collected, 7.6 months exactly.
    expect(result.atClosing).toEqual({ annualTax: 6000, monthlyTax: 500, amount: 4000, exactAmount: 3800 });
    // Dated: the day the schedules were last checked against their sources.
    expect(result.as_of).toBe(JSON.parse(fs.readFileSync(SCHEDULES_FILE, 'utf8')).asOf);
    // Without a tax bill there are no dollars; a whole-month schedule says it needed no rounding.
    const whole = ask(service, { state: 'IL', county: '17031', closing_month: 9 });
    expect(whole.atClosing).toBeUndefined();
    expect(whole.escrowMonthsExact).toBe(whole.escrowMonths);
    expect(whole.escrowMonthsRounding).toMatch(/needs no rounding/);
  });

  it('Franklin County, OH: tax year 2025 collected February 28 and late July 2026', () => {
    // Franklin County Treasurer, Real Estate Property Tax Due Date FAQ: first half due February 28,
    // second half no earlier than July 20, 2026.
    const taxYear2025: Announced[] = [
      { due: '2026-02-28', months: 6 },
      { due: '2026-07', months: 6 },
    ];
    const result = ask(service, { state: 'OH', county: '39049', closing_month: 9 });
    expectAnsweredFrom(result, taxYear2025, 'https://treasurer.franklincountyohio.gov/Property-Tax-Due-Date', '2025');
    expect(result.taxSchedule.disbursementMonths).toEqual(['February', 'July']);
    expect(result.escrowMonths).toBe(5);
  });

  it('Fulton County, GA: due October 15, not the Georgia default of December', () => {
    // Fulton County Tax Commissioner via WABE (2019): October 15 outside Atlanta; County Code § 58-225.
    const fulton: Announced[] = [{ due: '2019-10-15', months: 12 }];
    const result = ask(service, { state: 'GA', county: 'Fulton', closing_month: 6 });
    expectAnsweredFrom(result, fulton, 'https://wabe.org/?p=70087', '2019');
    expect(result.taxSchedule.disbursementMonths).toEqual(['October']);
    // June closing: deposits in August and September only before the October bill: 2 + 12 - 3 = 11.
    expect(result.escrowMonths).toBe(11);
    expect(ask(service, { state: 'GA', closing_month: 6 }).escrowMonths).toBe(handProjection([{ due: '2019-12-20', months: 12 }], 6));
    expect(result.escrowMonths).not.toBe(ask(service, { state: 'GA', closing_month: 6 }).escrowMonths);
  });

  it('Gwinnett County, GA: tax year 2022 bills due November 1, 2022', () => {
    // Gwinnett County Tax Commissioner's reminder: 2022 property tax bills are due Nov. 1.
    const taxYear2022: Announced[] = [{ due: '2022-11-01', months: 12 }];
    const result = ask(service, { state: 'GA', county: 'Gwinnett County', closing_month: 9 });
    expectAnsweredFrom(
      result,
      taxYear2022,
      'https://gwinnettcitizen.com/local-news/gwinnett-pulse/gwinnett-county-property-taxes-due-nov-1',
      '2022',
    );
    expect(result.taxSchedule.disbursementMonths).toEqual(['November']);
    // A September closing: the first payment is in November, the month the whole bill is paid.
    expect(result.escrowMonths).toBe(13);
  });
});

describe('dates that move from year to year', () => {
  const verification = {
    status: 'checked',
    checked: '2026-11-24',
    copy: 'stored',
    taxYear: '2030',
    sources: [
      {
        url: 'https://example.gov/taxes',
        publisher: 'Example County Treasurer',
        kind: 'collector',
        taxYear: '2030',
        says: 'Dates for tax year 2030.',
      },
    ],
  };
  const county = (taxYears: unknown[], checkedYear = '2030') =>
    CountyOverrideSchema.parse({
      state: 'OH',
      county: 'Example County',
      fips: '39999',
      frequency: 'semi-annual',
      taxYears,
      notes: 'A county whose collector moves its dates.',
      source: { citation: 'Example County Treasurer' },
      verification: { ...verification, taxYear: checkedYear, sources: [{ ...verification.sources[0], taxYear: checkedYear }] },
    });

  it('serves the latest tax year with every date published and reports a partial later year', () => {
    const served = servedSchedule(
      county([
        {
          taxYear: '2030',
          installments: [
            { due: '2031-02-15', units: 6 },
            { due: '2031-07-20', units: 6 },
          ],
        },
        {
          taxYear: '2031',
          installments: [
            { due: '2032-03-01', units: 6 },
            { due: null, units: 6 },
          ],
        },
      ]),
    );
    expect(served.taxYear).toBe('2030');
    expect(served.installments).toEqual([
      { month: 2, units: 6 },
      { month: 7, units: 6 },
    ]);
    expect(served.notes).toMatch(/Months from tax year 2030/);
    expect(served.notes).toMatch(/Tax year 2031 so far: installment 1 March 1, 2032, installment 2 not yet published/);
  });

  it('moves to a newer tax year once all its dates are published', () => {
    const served = servedSchedule(
      county(
        [
          {
            taxYear: '2030',
            installments: [
              { due: '2031-02-15', units: 6 },
              { due: '2031-07-20', units: 6 },
            ],
          },
          {
            taxYear: '2031',
            installments: [
              { due: '2032-03-01', units: 6 },
              { due: '2032-08', units: 6 },
            ],
          },
        ],
        '2031',
      ),
    );
    expect(served.taxYear).toBe('2031');
    expect(served.installments.map((installment) => installment.month)).toEqual([3, 8]);
  });

  it('refuses a check of another tax year than the one served, and a year with no date published', () => {
    expect(() =>
      county(
        [
          {
            taxYear: '2030',
            installments: [
              { due: '2031-02-15', units: 6 },
              { due: '2031-07-20', units: 6 },
            ],
          },
        ],
        '2031',
      ),
    ).toThrow(/served from tax year 2030/);
    expect(() =>
      county([
        {
          taxYear: '2030',
          installments: [
            { due: null, units: 6 },
            { due: null, units: 6 },
          ],
        },
      ]),
    ).toThrow(/every due date published/);
  });
});
