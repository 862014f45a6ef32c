// Turns zod failures on query strings and bodies into 400 messages that name the parameter and say
// what is valid, e.g. "Invalid value for 'state': \"ZZ\". Valid values: AK, AL, ...".
import { z } from 'zod';
import { BadRequestError } from './errors.ts';

function describeIssue(issue: z.core.$ZodIssue, where: 'query' | 'body', input: unknown): string {
  const name = issue.path.length > 0 ? issue.path.join('.') : where === 'body' ? 'body' : 'query';
  const received = issue.path.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
  const shown = received === undefined ? '' : `: ${JSON.stringify(received)?.slice(0, 80)}`;
  if (issue.code === 'invalid_value') {
    return `Invalid value for '${name}'${shown}. Valid values: ${issue.values.map(String).join(', ')}.`;
  }
  if (issue.code === 'invalid_type' && received === undefined) {
    return `Missing required ${where === 'query' ? 'parameter' : 'field'} '${name}'.`;
  }
  if (issue.code === 'invalid_type' && Array.isArray(received) && where === 'query') {
    return `Parameter '${name}' was given more than once; give it once.`;
  }
  return `Invalid value for '${name}'${shown}: ${issue.message}`;
}

/** The path of the first string holding a NUL character (PostgreSQL text cannot store one). */
function nulPath(value: unknown, depth = 0): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : undefined;
  if (depth > 8 || value === null || typeof value !== 'object') return undefined;
  // On every request's parsed query: no allocation unless a NUL is found.
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const found = nulPath(record[key], depth + 1);
    if (found) return [key, ...found];
  }
  return undefined;
}

/** Throws a 400 naming the field when any string in `value` holds a NUL character. */
export function refuseNul(value: unknown, where: string): void {
  const nul = nulPath(value);
  if (nul) {
    const name = nul.length > 0 ? nul.join('.') : where;
    throw new BadRequestError(`Invalid value for '${name}': it contains a NUL character (%00 or \\u0000); remove it.`);
  }
}

/** Parses `input` with `schema`, or throws a BadRequestError whose message lists every problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, where: 'query' | 'body'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) {
    // Checked on what the route will use (unknown parameters stay ignored).
    refuseNul(result.data, where);
    return result.data;
  }
  const messages = [...new Set(result.error.issues.map((issue) => describeIssue(issue, where, input)))];
  throw new BadRequestError(messages.join(' '));
}
