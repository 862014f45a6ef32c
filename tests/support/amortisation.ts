// A loan's monthly payment found without the amortisation formula: the payment at which paying the
// loan month by month (interest added, payment taken) leaves nothing owed after the last month, found
// by bisection. The tests hold the service's closed-form payments against it.

/** What is owed after `months` payments of `payment` on `loan` at `monthlyRate`. */
function owedAfter(loan: number, monthlyRate: number, months: number, payment: number): number {
  let balance = loan;
  for (let month = 0; month < months; month += 1) balance += balance * monthlyRate - payment;
  return balance;
}

/** The monthly payment (unrounded) that repays `loan` at `annualPercent` in `years`. */
export function amortisedPayment(loan: number, annualPercent: number, years: number): number {
  const monthlyRate = annualPercent / 100 / 12;
  const months = years * 12;
  // Repaid at loan ÷ months with no interest; never more than the loan plus a month's interest each month.
  let low = loan / months;
  let high = loan / months + loan * monthlyRate + 1;
  for (let step = 0; step < 200 && high - low > 1e-9; step += 1) {
    const middle = (low + high) / 2;
    if (owedAfter(loan, monthlyRate, months, middle) > 0) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
