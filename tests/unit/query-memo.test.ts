import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Request } from 'express';
import { memoizedQueryParser, rawQueryString } from '../../api/platform/http/query-memo.ts';
import { BadRequestError } from '../../api/platform/errors.ts';

const schema = z.object({ state: z.enum(['CO', 'TX']).default('CO'), years: z.array(z.string()).default([]) });

/** A request as the registry sees it: the URL and Express's parsed query (counted reads). */
function request(url: string, query: Record<string, unknown>) {
  const reads = { count: 0 };
  const req = {
    url,
    get query() {
      reads.count += 1;
      return query;
    },
  } as unknown as Request;
  return { req, reads };
}

describe('memoizedQueryParser', () => {
  it('validates a query string once and hands back the same frozen value after', () => {
    const parse = memoizedQueryParser(schema);
    const first = request('/rates?state=TX', { state: 'TX' });
    const again = request('/rates?state=TX', { state: 'TX' });
    const value = parse(first.req);
    expect(value).toEqual({ state: 'TX', years: [] });
    expect(parse(again.req)).toBe(value);
    expect(again.reads.count).toBe(0);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.years)).toBe(true);
  });

  it('tells different query strings apart, including none', () => {
    const parse = memoizedQueryParser(schema);
    expect(parse(request('/rates', {}).req).state).toBe('CO');
    expect(parse(request('/rates?state=TX', { state: 'TX' }).req).state).toBe('TX');
  });

  it('throws the 400 every time for an invalid string instead of remembering it', () => {
    const parse = memoizedQueryParser(schema);
    for (let i = 0; i < 2; i += 1) {
      const { req, reads } = request('/rates?state=ZZ', { state: 'ZZ' });
      expect(() => parse(req)).toThrow(BadRequestError);
      expect(reads.count).toBe(1);
    }
  });

  it('reads the raw query string after the first ?', () => {
    expect(rawQueryString('/rates')).toBe('');
    expect(rawQueryString('/rates?a=1?b')).toBe('a=1?b');
  });
});
