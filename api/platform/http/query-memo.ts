// Validated query parameters remembered per raw query string, one small map per route. API traffic
// repeats a few parameter sets (the default `/rates`, a state's page), and Express re-parses the
// query string on every read of `req.query`, so parsing and validating once per distinct string
// takes that work off the hot path. Failures are not remembered: they throw a 400 every time.
import type { Request } from 'express';
import type { z } from 'zod';
import { parseOrThrow } from './validation.ts';

/** Distinct query strings kept per route; the oldest is dropped first (a flood only costs a parse). */
const MAX_ENTRIES = 1_000;

/** The part of the URL after `?`, or '' without one. */
export function rawQueryString(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? '' : url.slice(mark + 1);
}

/** Frozen all the way down, so a handler that changed a remembered value would throw, not leak. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

export function memoizedQueryParser<S extends z.ZodType>(schema: S): (req: Request) => z.output<S> {
  return memoizedParser((query) => parseOrThrow(schema, query, 'query'));
}

/** `parse` (which throws a 400 on bad input) run once per distinct query string of a route. */
export function memoizedParser<T>(parse: (query: unknown) => T): (req: Request) => T {
  const remembered = new Map<string, T>();
  return (req) => {
    const raw = rawQueryString(req.url);
    const hit = remembered.get(raw);
    if (hit !== undefined) return hit;
    const parsed = deepFreeze(parse(req.query));
    if (remembered.size >= MAX_ENTRIES) remembered.delete(remembered.keys().next().value as string);
    remembered.set(raw, parsed);
    return parsed;
  };
}
