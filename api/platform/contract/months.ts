// Months as people write them: a number (3, "03"), a month name or its abbreviation in any case
// ("March", "mar", "Sept"). The JSON Schema stays an integer from 1 to 12; the names are read in
// `z.preprocess`, so what a client is shown is exactly what the answer uses (the MCP listing also
// shows the texts accepted).
import { z } from 'zod';
import { valueMessage } from './messages.ts';
import { lenient, textForms } from './lenient.ts';
import { foldCase, wordsPattern } from './patterns.ts';

type Issue = { path?: PropertyKey[] | undefined; input?: unknown };

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
export type MonthName = (typeof MONTH_NAMES)[number];

const byName = new Map<string, number>();
MONTH_NAMES.forEach((name, index) => {
  byName.set(name.toLowerCase(), index + 1);
  byName.set(name.slice(0, 3).toLowerCase(), index + 1);
});
byName.set('sept', 9);

/** "3", " 03 ", "March", "mar.", "SEPT" → the month number; anything else → undefined. */
export function monthOf(value: string): number | undefined {
  const trimmed = foldCase(value.trim()).replace(/\.$/, '');
  if (/^\d{1,2}$/.test(trimmed)) return Number(trimmed);
  return byName.get(trimmed);
}

const MONTH_HINT = 'Give a month number 1-12 or a month name, e.g. 3, "03", "March" or "mar".';

/** A month from 1 to 12, given as a number, numeric text or a month name in any case. */
export function monthNumber() {
  const error = (issue: Issue) => valueMessage(issue, MONTH_HINT);
  const read = (value: unknown) => (typeof value === 'string' ? (monthOf(value) ?? value) : value);
  const text = `(?:0?[1-9]|1[0-2]|${wordsPattern([...byName.keys()], { space: '\\s+' })})\\.?`;
  return lenient(read, z.int({ error }).min(1, { error }).max(12, { error }), {
    json: { anyOf: [{ type: 'integer', minimum: 1, maximum: 12 }, textForms(text)] },
    text,
  });
}
