// Turns zod failures on query strings and bodies into 400 messages that name the parameter and say
// what is valid, e.g. "Invalid value for 'state': \"ZZ\". Valid values: AK, AL, ...". The wording
// is the contract vocabulary's (api/platform/contract/issues.ts), shared with the MCP tools.
import type { z } from 'zod';
import { describeIssues } from './contract/issues.ts';
import { BadRequestError } from './errors.ts';

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
  throw new BadRequestError(describeIssues(result.error.issues, input, where));
}
