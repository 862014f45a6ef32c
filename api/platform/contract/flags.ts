// Yes/no parameters as people write them: true/false as JSON booleans or as text in any case, and
// the spellings query strings and agents commonly use for them (1/0 as numbers or text, yes/no).
// The JSON Schema stays a boolean.
import { z } from 'zod';
import { valueMessage } from './messages.ts';
import { lenient, textForms } from './lenient.ts';
import { foldCase, wordsPattern } from './patterns.ts';

type Issue = { path?: PropertyKey[] | undefined; input?: unknown };

const WORDS = new Map<string, boolean>([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
  ['yes', true],
  ['no', false],
]);

const FLAG_HINT = 'Give true or false.';

/** `true`, "TRUE", 1, "1", "yes" → true; `false`, "False", 0, "0", "no" → false. */
export function flag() {
  const error = (issue: Issue) => valueMessage(issue, FLAG_HINT);
  const read = (value: unknown) => {
    if (value === 1 || value === 0) return value === 1;
    return typeof value === 'string' ? (WORDS.get(foldCase(value.trim())) ?? value) : value;
  };
  const json = {
    anyOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }, textForms(wordsPattern([...WORDS.keys()], { space: '\\s+' }))],
  };
  return lenient(read, z.boolean({ error }), { json });
}
