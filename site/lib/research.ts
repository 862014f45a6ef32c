// Formatting shared by the research pages.
export const money = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `$${value.toLocaleString('en-US')}`;
export const percent = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined ? '—' : `${value.toFixed(digits)}%`;
export const whole = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : value.toLocaleString('en-US');

/** An escrow schedule's frequency as a reader says it. */
export const howOften = (frequency: string): string =>
  ({ annual: 'once a year', 'semi-annual': 'twice a year', quarterly: 'four times a year' })[frequency] ?? frequency;
