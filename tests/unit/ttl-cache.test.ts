import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../api/platform/ttl-cache.ts';

describe('TtlCache', () => {
  it('returns a value until its time is up', () => {
    let now = 1_000;
    const cache = new TtlCache<string>(60_000, 10, () => new Date(now));
    cache.set('a', 'answer');
    now += 59_999;
    expect(cache.get('a')).toBe('answer');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest entry beyond its size, and keeps nothing with a TTL of 0', () => {
    const cache = new TtlCache<number>(60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    const off = new TtlCache<number>(0, 2);
    off.set('a', 1);
    expect(off.get('a')).toBeUndefined();
  });
});
