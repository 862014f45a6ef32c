// Formatting shared by the research pages.
export const money = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : `$${value.toLocaleString('en-US')}`);
export const percent = (value: number | null | undefined, digits = 1): string => (value === null || value === undefined ? '—' : `${value.toFixed(digits)}%`);
export const whole = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : value.toLocaleString('en-US'));
