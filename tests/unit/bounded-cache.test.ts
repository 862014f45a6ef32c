import { describe, expect, it } from 'vitest';
import { answerCache, BoundedCache, estimatedBytes, rememberAnswer } from '../../api/platform/bounded-cache.ts';

describe('BoundedCache', () => {
  it('returns a value until its time is up', () => {
    let now = 1_000;
    const cache = new BoundedCache<string>({ maxBytes: 1_000_000, ttlMs: 60_000, clock: () => new Date(now) });
    cache.set('a', 'answer');
    now += 59_999;
    expect(cache.get('a')).toBe('answer');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest entry beyond its size, and keeps nothing with a TTL of 0', () => {
    const cache = new BoundedCache<number>({ maxBytes: 1_000_000, maxEntries: 2, ttlMs: 60_000 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    const off = new BoundedCache<number>({ maxBytes: 1_000_000, maxEntries: 2, ttlMs: 0 });
    off.set('a', 1);
    expect(off.get('a')).toBeUndefined();
  });

  it('drops the least recently used entries to stay within its bytes, and keeps no entry larger than them', () => {
    const cache = new BoundedCache<string>({ maxBytes: 100, sizeOf: (value) => value.length });
    cache.set('a', 'x'.repeat(40));
    cache.set('b', 'y'.repeat(40));
    expect(cache.get('a')).toBeDefined(); // now more recent than b
    cache.set('c', 'z'.repeat(40));
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.bytes).toBe(80);
    cache.set('huge', 'w'.repeat(101));
    expect(cache.has('huge')).toBe(false);
    expect(cache.size).toBe(2);
  });

  it('estimates strings at two bytes a character and other values by their JSON', () => {
    expect(estimatedBytes('abcd')).toBe(2 * 4 + 16);
    expect(estimatedBytes({ a: 1 })).toBe(2 * '{"a":1}'.length + 16);
  });
});

describe('answerCache', () => {
  it('serialises an answer once and hands back the same entry', () => {
    const cache = answerCache<{ n: number }>({ maxBytes: 1_000_000 });
    const entry = rememberAnswer(cache, 'k', { n: 1 });
    expect(entry.json).toBe('{"n":1}');
    expect(cache.get('k')).toBe(entry);
  });

  it('counts an answer by its JSON, so a byte budget bounds how many are kept', () => {
    const cache = answerCache<string>({ maxBytes: 3 * 1_000 + 64 });
    rememberAnswer(cache, 'a', 'x'.repeat(500));
    rememberAnswer(cache, 'b', 'y'.repeat(500));
    expect([cache.has('a'), cache.has('b')]).toEqual([false, true]);
  });
});
