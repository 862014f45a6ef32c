// The payment calculator's parts, checked against the amortisation formula computed here and HUD's
// premium table as Mortgagee Letter 2023-05 prints it.
import { describe, expect, it } from 'vitest';
import { paymentBreakdown, principalAndInterest } from '../../api/payment/monthly-payment.ts';
import { fhaAnnualPremiumBps } from '../../api/payment/fha-premiums.ts';
import { monthlyPayment } from '../../api/analysis/arithmetic.ts';
import { monthlyPayment as statisticsPayment } from '../../api/statistics/types.ts';
import { amortisedPayment } from '../support/amortisation.ts';

/** The monthly payment of a fully amortising loan, written out independently of the module. */
function expectedPayment(loan: number, annualPercent: number, years: number): number {
  const r = annualPercent / 1200;
  const n = years * 12;
  const growth = Math.pow(1 + r, n);
  return (loan * r * growth) / (growth - 1);
}

describe('monthly payment', () => {
  it('gives principal and interest by the amortisation formula (a $320,000 loan at 6.5% over 30 years is $2,022.62)', () => {
    expect(principalAndInterest(320_000, 6.5, 30)).toBeCloseTo(expectedPayment(320_000, 6.5, 30), 9);
    expect(Math.round(principalAndInterest(320_000, 6.5, 30) * 100) / 100).toBe(2022.62);
    expect(principalAndInterest(120_000, 0, 10)).toBe(1000);
  });

  it('agrees with paying the loan off month by month, at tiny rates too, so the interest is never negative', () => {
    for (const [loan, percent, years] of [
      [400_000, 6.5, 30],
      [400_000, 0.0000001, 50],
      [400_000, 0.001, 50],
      [1_000_000, 29.99, 1],
    ] as const) {
      expect(principalAndInterest(loan, percent, years), `${loan} at ${percent}% for ${years} years`).toBeCloseTo(
        amortisedPayment(loan, percent, years),
        6,
      );
    }
    // The analysis layer's payment (REST, MCP, /ask) and the statistics' go through the same amortisation.
    const tiny = monthlyPayment(400_000, 0.0000001, 50);
    expect(tiny.monthly_payment).toBe(666.67);
    // About a cent of interest over 50 years at 0.0000001% (it read −$0.02).
    expect(tiny.total_interest).toBe(Math.round((amortisedPayment(400_000, 0.0000001, 50) * 600 - 400_000) * 100) / 100);
    expect(tiny.total_interest).toBeGreaterThanOrEqual(0);
    expect(monthlyPayment(400_000, 6.5, 30).monthly_payment).toBe(Math.round(amortisedPayment(400_000, 6.5, 30) * 100) / 100);
    expect(statisticsPayment(400_000, 6.5)).toBe(principalAndInterest(400_000, 6.5, 30));
  });

  it("adds tax, insurance and a conventional loan's PMI above 80% LTV, each a twelfth of the year", () => {
    const breakdown = paymentBreakdown({
      price: 400_000,
      downPercent: 10,
      ratePercent: 6.5,
      termYears: 30,
      loanType: 'conventional',
      annualTax: 4_800,
      annualInsurance: 1_500,
      pmiRatePercent: 0.5,
    });
    expect(breakdown.baseLoan).toBe(360_000);
    expect(breakdown.ltvPercent).toBe(90);
    expect(breakdown.principalAndInterest).toBe(Math.round(expectedPayment(360_000, 6.5, 30) * 100) / 100);
    expect(breakdown.tax).toBe(400);
    expect(breakdown.insurance).toBe(125);
    expect(breakdown.mortgageInsurance).toEqual({ kind: 'pmi', annualRatePercent: 0.5, monthly: 150, upfrontPremium: null });
    expect(breakdown.total).toBe(Math.round((breakdown.principalAndInterest + 400 + 125 + 150) * 100) / 100);
  });

  it('says PMI is missing rather than inventing a rate, and needs none at 20% down', () => {
    expect(
      paymentBreakdown({ price: 400_000, downPercent: 5, ratePercent: 6, termYears: 30, loanType: 'conventional' }).mortgageInsurance.kind,
    ).toBe('pmi_not_given');
    expect(
      paymentBreakdown({ price: 400_000, downPercent: 20, ratePercent: 6, termYears: 30, loanType: 'conventional', pmiRatePercent: 0.5 })
        .mortgageInsurance.kind,
    ).toBe('none');
  });

  it("finances FHA's 1.75% upfront premium and charges its annual premium by HUD's table", () => {
    const breakdown = paymentBreakdown({ price: 300_000, downPercent: 3.5, ratePercent: 6, termYears: 30, loanType: 'fha' });
    expect(breakdown.baseLoan).toBe(289_500);
    expect(breakdown.mortgageInsurance.upfrontPremium).toBe(5_066.25);
    expect(breakdown.loanAmount).toBe(294_566.25);
    expect(breakdown.mortgageInsurance.annualRatePercent).toBe(0.55);
    expect(breakdown.mortgageInsurance.monthly).toBe(Math.round(((289_500 * 0.0055) / 12) * 100) / 100);
    expect(breakdown.principalAndInterest).toBe(Math.round(expectedPayment(294_566.25, 6, 30) * 100) / 100);
    expect(() => paymentBreakdown({ price: 300_000, downPercent: 3, ratePercent: 6, termYears: 30, loanType: 'fha' })).toThrow(
      /at least 3.5% down/,
    );
  });

  it("reads HUD's annual premium table (ML 2023-05) for every term, amount and LTV band", () => {
    expect(fhaAnnualPremiumBps(400_000, 96.5, 30)).toBe(55);
    expect(fhaAnnualPremiumBps(400_000, 95, 30)).toBe(50);
    expect(fhaAnnualPremiumBps(800_000, 96.5, 30)).toBe(75);
    expect(fhaAnnualPremiumBps(800_000, 90, 30)).toBe(70);
    expect(fhaAnnualPremiumBps(400_000, 90, 15)).toBe(15);
    expect(fhaAnnualPremiumBps(400_000, 91, 15)).toBe(40);
    expect(fhaAnnualPremiumBps(800_000, 78, 15)).toBe(15);
    expect(fhaAnnualPremiumBps(800_000, 85, 15)).toBe(40);
    expect(fhaAnnualPremiumBps(800_000, 95, 15)).toBe(65);
  });
});
