// FHA mortgage insurance premiums for forward loans on one-to-four-unit homes, as HUD sets them
// (Mortgagee Letter 2023-05, for loans endorsed on or after March 20, 2023; the upfront
// premium from Mortgagee Letter 2015-01). Rates are in basis points of the loan amount per year.
export const FHA_PREMIUM_SOURCE = {
  title:
    'HUD Mortgagee Letter 2023-05, Reduction of FHA Annual Mortgage Insurance Premium Rates (upfront premium: Mortgagee Letter 2015-01)',
  url: 'https://www.hud.gov/sites/dfiles/OCHCO/documents/2023-05hsgml.pdf',
} as const;

/** The upfront premium: 175 basis points of the base loan amount, usually financed into the loan. */
export const FHA_UPFRONT_PREMIUM_BPS = 175;

/** The base loan amount above which the higher annual premiums apply. */
export const FHA_PREMIUM_LOAN_THRESHOLD = 726_200;

/** FHA's smallest down payment for a borrower with a score of 580 or more: 3.5% (LTV 96.5%). */
export const FHA_MAX_LTV_PERCENT = 96.5;

/** The annual premium in basis points for a base loan amount, LTV (percent) and term (years). */
export function fhaAnnualPremiumBps(baseLoan: number, ltvPercent: number, termYears: number): number {
  const large = baseLoan > FHA_PREMIUM_LOAN_THRESHOLD;
  if (termYears > 15) {
    if (large) return ltvPercent <= 95 ? 70 : 75;
    return ltvPercent <= 95 ? 50 : 55;
  }
  if (large) return ltvPercent <= 78 ? 15 : ltvPercent <= 90 ? 40 : 65;
  return ltvPercent <= 90 ? 15 : 40;
}
