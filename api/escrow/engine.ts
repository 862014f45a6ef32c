// The escrow-at-closing computation (RESPA aggregate analysis, 12 CFR 1024.17) exactly as the API
// contract states it, in units of one month of tax. Pure code: no I/O, no dates beyond month numbers.
import { MONTH_NAMES, type MonthName } from '../platform/contract/months.ts';
import type { EscrowProjectionMonth } from './contract.ts';

export { MONTH_NAMES, type MonthName };

/** The cushion RESPA allows: 1/6 of the annual disbursements, i.e. 2 months. */
export const CUSHION_MONTHS = 2;

/** One tax installment: the month (1-12) the servicer pays it and its share of the year in months. */
export interface Installment {
  month: number;
  units: number;
}

/** One month of the projection, as the contract declares it. */
export type ProjectionMonth = EscrowProjectionMonth;

export interface EscrowComputation {
  closingMonth: number;
  firstPaymentMonth: number;
  cushionMonths: number;
  lowestBalance: number;
  /** cushion − lowest balance before rounding (fractional where installments are not whole months). */
  exactMonths: number;
  escrowMonths: number;
  projection: ProjectionMonth[];
}

const EPSILON = 1e-9;
// Fractional units (e.g. Cook County's 55% first installment) leave float noise; keep 6 decimals.
const round = (value: number): number => Math.round(value * 1e6) / 1e6;

export function monthName(month: number): MonthName {
  const name = MONTH_NAMES[month - 1];
  if (!name) throw new RangeError(`month must be 1..12, got ${month}`);
  return name;
}

/** Month number `offset` months after `month` (1-12, wrapping). */
export function addMonths(month: number, offset: number): number {
  return ((((month - 1 + offset) % 12) + 12) % 12) + 1;
}

function assertSchedule(installments: readonly Installment[]): void {
  const total = installments.reduce((sum, installment) => sum + installment.units, 0);
  if (installments.length === 0 || Math.abs(total - 12) > 1e-6) {
    throw new RangeError(`installments must total 12 units (one year of tax), got ${total}`);
  }
  for (const installment of installments) {
    if (!Number.isInteger(installment.month) || installment.month < 1 || installment.month > 12) {
      throw new RangeError(`installment month must be 1..12, got ${installment.month}`);
    }
    if (!(installment.units > 0)) throw new RangeError('installment units must be positive');
  }
}

/**
 * Escrow months to collect at closing for a closing in `closingMonth`:
 * first payment = closing + 2; 12 months projected from it, each depositing 1 unit then paying that
 * month's installments; escrowMonths = cushion − lowest running balance (from 0), never below 0.
 * Fractional schedules are rounded up to a whole month so the cushion is always met.
 */
export function computeEscrow(
  installments: readonly Installment[],
  closingMonth: number,
  cushionMonths: number = CUSHION_MONTHS,
): EscrowComputation {
  assertSchedule(installments);
  if (!Number.isInteger(closingMonth) || closingMonth < 1 || closingMonth > 12) {
    throw new RangeError(`closingMonth must be 1..12, got ${closingMonth}`);
  }
  const firstPaymentMonth = addMonths(closingMonth, 2);
  const rows: Omit<ProjectionMonth, 'balanceWithInitialDeposit'>[] = [];
  let balance = 0;
  let lowestBalance = 0;
  for (let offset = 0; offset < 12; offset += 1) {
    const month = addMonths(firstPaymentMonth, offset);
    const disbursement = round(installments.filter((installment) => installment.month === month).reduce((sum, i) => sum + i.units, 0));
    balance = round(balance + 1 - disbursement);
    lowestBalance = Math.min(lowestBalance, balance);
    rows.push({ month, monthName: monthName(month), deposit: 1, disbursement, balance });
  }
  const exactMonths = Math.max(0, round(cushionMonths - lowestBalance));
  const escrowMonths = Math.ceil(exactMonths - EPSILON);
  return {
    closingMonth,
    firstPaymentMonth,
    cushionMonths,
    lowestBalance,
    exactMonths,
    escrowMonths,
    projection: rows.map((row) => ({ ...row, balanceWithInitialDeposit: round(row.balance + escrowMonths) })),
  };
}

/** escrowMonths for each of the 12 closing months, keyed by month name. */
export function computeAllMonths(installments: readonly Installment[], cushionMonths: number = CUSHION_MONTHS): Record<MonthName, number> {
  return Object.fromEntries(
    MONTH_NAMES.map((name, index) => [name, computeEscrow(installments, index + 1, cushionMonths).escrowMonths]),
  ) as Record<MonthName, number>;
}

/** How the exact figure became a whole number of months, in words an answer can show. */
export function roundingNote(exactMonths: number, escrowMonths: number): string {
  if (Math.abs(exactMonths - escrowMonths) < 1e-6)
    return `Exact: the schedule pays whole months of tax, so ${escrowMonths} months needs no rounding.`;
  return (
    `The RESPA computation gives ${formatMonths(exactMonths)} months, because the installments are not whole months of tax; ` +
    `it is rounded up to ${escrowMonths} so the cushion is always met.`
  );
}

/** A fractional month count to two decimals, without trailing zeros (4.6, 4.25). */
export function formatMonths(months: number): string {
  return String(Math.round(months * 100) / 100);
}
