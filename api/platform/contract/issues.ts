// Turns zod's issues into the one message a caller reads: one sentence per parameter (its first
// problem; a date that is both malformed and not a day is one mistake, said once), naming it, with
// what was given and what is valid. The lenient helpers write complete sentences themselves; other
// schemas' messages get the same frame.
import type { z } from 'zod';
import { parameterName, repeatedParameterMessage, shownValue } from './messages.ts';

/** Messages the contract vocabulary writes whole (they already name the parameter). */
const COMPOSED = /^(Invalid value for '|Missing '|Unknown (parameter|argument)s? |Give the (parameter|argument)s |Parameter ')/;

export type InputPlace = 'query' | 'arguments' | 'body';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function describeIssue(issue: z.core.$ZodIssue, input: unknown, where: InputPlace): string {
  if (COMPOSED.test(issue.message)) return issue.message;
  const name = issue.path.length > 0 ? parameterName(issue.path) : where;
  const received = valueAt(input, issue.path);
  // A query parameter repeated reaches the schema as an array where one value is expected.
  if (
    where === 'query' &&
    issue.path.length === 1 &&
    Array.isArray(received) &&
    (issue.code === 'invalid_type' || issue.code === 'invalid_value')
  ) {
    return repeatedParameterMessage(name);
  }
  const shown = shownValue(received);
  if (issue.code === 'invalid_value') {
    return `Invalid value for '${name}'${shown ? `: ${shown}` : ''}. Valid values: ${issue.values.map(String).join(', ')}.`;
  }
  if (issue.code === 'invalid_type' && received === undefined) {
    return `Missing required ${where === 'query' ? 'parameter' : where === 'arguments' ? 'argument' : 'field'} '${name}'.`;
  }
  return `Invalid value for '${name}'${shown ? `: ${shown}` : ''}: ${issue.message}`;
}

/** One message per parameter, in the order the issues came, joined into one. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown, where: InputPlace): string {
  const byParameter = new Map<string, string>();
  for (const issue of issues) {
    const key = issue.code === 'unrecognized_keys' ? '\u0000unknown' : String(issue.path[0] ?? '');
    if (!byParameter.has(key)) byParameter.set(key, describeIssue(issue, input, where));
  }
  return [...byParameter.values()].join(' ');
}
