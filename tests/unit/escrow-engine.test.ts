// The RESPA aggregate-analysis engine: the contract's worked example, hand-checked schedules and
// properties that must hold for any schedule; and the dollars at closing, rounded half a cent up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths, computeAllMonths, computeEscrow, MONTH_NAMES, roundingNote, type Installment } from '../../api/escrow/engine.ts';
import { escrowAtClosing } from '../../api/escrow/service.ts';

const annualJanuary: Installment[] = [{ month: 1, units: 12 }];

describe('escrow engine', () => {
  it('gives 5 months for taxes paid once a year in January and a March closing (contract example)', () => {
    const result = computeEscrow(annualJanuary, 3);
    expect(result.firstPaymentMonth).toBe(5);
    expect(result.lowestBalance).toBe(-3);
    expect(result.escrowMonths).toBe(5);
    expect(result.projection.map((row) => row.monthName)).toEqual([
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
      'January',
      'February',
      'March',
      'April',
    ]);
    expect(result.projection.map((row) => row.balance)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, -3, -2, -1, 0]);
    expect(Math.min(...result.projection.map((row) => row.balanceWithInitialDeposit))).toBe(2);
  });

  it('computes California-style halves (December, April) for every closing month', () => {
    const months = computeAllMonths([
      { month: 12, units: 6 },
      { month: 4, units: 6 },
    ]);
    // Closing in October: first payment December: -5, then -4, -3, -2 and April pays 6 → -7; 2 + 7 = 9.
    expect(months.October).toBe(9);
    // Closing in February: first payment April → -5 → 7; closing in March: May..Nov deposit 7 before December → 2.
    expect(months.February).toBe(7);
    expect(months.March).toBe(2);
  });

  it('rounds fractional schedules up to a whole month', () => {
    // Closing in June: first payment August, when 5.4 leaves: 1 − 5.4 = −4.4, the lowest point → 2 + 4.4 = 6.4 → 7.
    const result = computeEscrow(
      [
        { month: 3, units: 6.6 },
        { month: 8, units: 5.4 },
      ],
      6,
    );
    expect(result.escrowMonths).toBe(7);
    expect(result.exactMonths).toBe(6.4);
    expect(roundingNote(result.exactMonths, result.escrowMonths)).toBe(
      'The RESPA computation gives 6.4 months, because the installments are not whole months of tax; it is rounded up to 7 so the cushion is always met.',
    );
  });

  it('says no rounding was needed when the schedule pays whole months', () => {
    const result = computeEscrow(annualJanuary, 3);
    expect(result.exactMonths).toBe(5);
    expect(roundingNote(result.exactMonths, result.escrowMonths)).toMatch(/^Exact: .* 5 months needs no rounding\.$/);
  });

  it('rejects schedules that do not total one year and months outside 1..12', () => {
    expect(() => computeEscrow([{ month: 1, units: 6 }], 3)).toThrow(/12 units/);
    expect(() => computeEscrow(annualJanuary, 13)).toThrow(RangeError);
    expect(() => computeEscrow([{ month: 0, units: 12 }], 3)).toThrow(RangeError);
  });

  const schedules = fc
    .uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 })
    .map((months): Installment[] => months.map((month) => ({ month, units: 12 / months.length })));

  it('allMonths[closing month] equals escrowMonths for any schedule', () => {
    fc.assert(
      fc.property(schedules, fc.integer({ min: 1, max: 12 }), (installments, closing) => {
        const all = computeAllMonths(installments);
        expect(all[MONTH_NAMES[closing - 1] as keyof typeof all]).toBe(computeEscrow(installments, closing).escrowMonths);
      }),
    );
  });

  it('results stay within 0..14 and never let the funded balance fall below the cushion', () => {
    fc.assert(
      fc.property(schedules, fc.integer({ min: 1, max: 12 }), (installments, closing) => {
        const result = computeEscrow(installments, closing);
        expect(result.escrowMonths).toBeGreaterThanOrEqual(0);
        expect(result.escrowMonths).toBeLessThanOrEqual(14);
        expect(Number.isInteger(result.escrowMonths)).toBe(true);
        expect(Math.min(...result.projection.map((row) => row.balanceWithInitialDeposit))).toBeGreaterThanOrEqual(2 - 1e-9);
        // The year deposits 12 and pays 12: the balance ends where it started.
        expect(result.projection.at(-1)?.balance).toBeCloseTo(0, 9);
        expect(result.firstPaymentMonth).toBe(addMonths(closing, 2));
      }),
    );
  });

  it('is minimal: one month less would break the cushion', () => {
    fc.assert(
      fc.property(schedules, fc.integer({ min: 1, max: 12 }), (installments, closing) => {
        const result = computeEscrow(installments, closing);
        if (result.escrowMonths === 0) return;
        const lowestWithOneLess = Math.min(...result.projection.map((row) => row.balance)) + result.escrowMonths - 1;
        expect(lowestWithOneLess).toBeLessThan(2);
      }),
    );
  });
});

describe('escrow dollars at closing', () => {
  it('rounds each figure to the cent, half a cent up, from the exact product', () => {
    // 6 months of $1,000.01 a year is $500.005 exactly: half a cent, so $500.01 (binary floating point read it as 500.00499…).
    expect(escrowAtClosing({ escrowMonths: 6, escrowMonthsExact: 6 }, 1000.01)).toMatchObject({ amount: 500.01, exactAmount: 500.01 });
    expect(escrowAtClosing({ escrowMonths: 7, escrowMonthsExact: 6.5 }, 1000.02)).toMatchObject({ amount: 583.35 });
    // One month of $1,000.06 is $83.338…: below the half, down.
    expect(escrowAtClosing({ escrowMonths: 1, escrowMonthsExact: 1 }, 1000.06).monthlyTax).toBe(83.34);
    expect(escrowAtClosing({ escrowMonths: 1, escrowMonthsExact: 1 }, 1000.02).monthlyTax).toBe(83.34);
    // Every half cent over 300 bills goes up: the rule holds, not by luck of the binary digits.
    for (let cents = 100_001; cents <= 100_300; cents += 1) {
      const tax = cents / 100;
      for (const months of [3, 6, 9]) {
        const exactTimes24 = 2 * months * cents; // 24 × the amount in cents, an integer
        const expected = Math.floor((exactTimes24 + 12) / 24) / 100;
        expect(escrowAtClosing({ escrowMonths: months, escrowMonthsExact: months }, tax).amount, `${months} months of ${tax}`).toBe(
          expected,
        );
      }
    }
  });
});
