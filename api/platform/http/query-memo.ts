// Validated query parameters remembered per raw query string, one small map per route. API traffic
// repeats a few parameter sets (the default `/rates`, a state's page), and Express re-parses the
// query string on every read of `req.query`, so parsing and validating once per distinct string
// takes that work off the hot path. Failures are not remembered: they throw a 400 every time.
import type { Request } from 'express';
import type { z } from 'zod';
import { BoundedCache, estimatedBytes } from '../bounded-cache.ts';
import { parseOrThrow } from '../validation.ts';
import { cacheCounter, isCacheOff } from '../cache-meter.ts';

/** Bytes of parsed queries kept per route (a parsed query is a few hundred bytes): the least recently used go first, so a flood only costs a parse. */
const MAX_BYTES = 512 * 1024;

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
  if (isCacheOff('query-memo')) return (req) => parse(req.query);
  const counter = cacheCounter('query-memo');
  const remembered = new BoundedCache<NonNullable<T>>({
    maxBytes: MAX_BYTES,
    sizeOf: (value, raw) => 2 * raw.length + estimatedBytes(value),
  });
  return (req) => {
    const raw = rawQueryString(req.url);
    const hit = remembered.get(raw);
    if (hit !== undefined) {
      counter.hits += 1;
      return hit;
    }
    counter.misses += 1;
    const parsed = deepFreeze(parse(req.query));
    if (parsed !== undefined && parsed !== null) remembered.set(raw, parsed);
    return parsed;
  };
}
