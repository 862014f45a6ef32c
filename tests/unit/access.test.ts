// Pure parts of keys and limits: the key format, where a key is read from, IP bucketing, which
// limit the headers describe, and cookie signing.
import { describe, expect, it } from 'vitest';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { KEY_LENGTH, displayPrefix, generateKey, hashKey, keyMatchesHash, keyPrefixOf, parsePrefix } from '../../api/access/key-format.ts';
import { extractApiKey, howToGetAKey } from '../../api/access/identity.ts';
import { canGiveBack, clientBucket, decide, ImmediateMemoryLimiter } from '../../api/access/limiter.ts';
import { STORE_TIMEOUT_MS } from '../../api/access/limiter-stores.ts';
import { sign } from 'cookie-signature';
import { readSignedCookie } from '../../api/access/session.ts';
import { testConfig } from '../support/app.ts';

describe('key format', () => {
  it('generates mds_<8>_<32> keys of the documented length whose prefix is recoverable', () => {
    const { key, prefix, hash } = generateKey();
    expect(key).toMatch(/^mds_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    expect(key).toHaveLength(KEY_LENGTH);
    expect(KEY_LENGTH).toBe(45);
    expect(keyPrefixOf(key)).toBe(prefix);
    expect(hash).toBe(hashKey(key));
    expect(hash).not.toContain(key.slice(14));
  });

  it('draws different keys every time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey().key));
    expect(keys.size).toBe(200);
  });

  it('matches a key only against its own hash', () => {
    const a = generateKey();
    const b = generateKey();
    expect(keyMatchesHash(a.key, a.hash)).toBe(true);
    expect(keyMatchesHash(b.key, a.hash)).toBe(false);
    expect(keyMatchesHash(a.key, 'abcd')).toBe(false);
  });

  it('rejects malformed keys without looking anything up', () => {
    for (const bad of [
      '',
      'mds_',
      'mds_short_x',
      `mds_${'a'.repeat(8)}_${'b'.repeat(31)}`,
      `xyz_${'a'.repeat(8)}_${'b'.repeat(32)}`,
      `mds_${'a'.repeat(8)}_${'b'.repeat(31)}!`,
    ]) {
      expect(keyPrefixOf(bad)).toBeUndefined();
    }
  });

  it('parses a prefix with or without mds_', () => {
    expect(parsePrefix('mds_Ab12Cd34')).toBe('Ab12Cd34');
    expect(parsePrefix(' Ab12Cd34 ')).toBe('Ab12Cd34');
    expect(parsePrefix('Ab12')).toBeUndefined();
    expect(displayPrefix('Ab12Cd34')).toBe('mds_Ab12Cd34');
  });
});

describe('extractApiKey', () => {
  const req = (headers: Record<string, string>, query: Record<string, string> = {}) => ({
    headers,
    query,
    url: `/rates?${new URLSearchParams(query).toString()}`,
  });
  it('reads each of the four forms', () => {
    expect(extractApiKey(req({ 'x-api-key': 'k1' }))).toBe('k1');
    expect(extractApiKey(req({ authorization: 'Bearer k2' }))).toBe('k2');
    expect(extractApiKey(req({ authorization: 'bearer   k2 ' }))).toBe('k2');
    expect(extractApiKey(req({}, { api_key: 'k3' }))).toBe('k3');
    expect(extractApiKey(req({}, { secret: 'k4' }))).toBe('k4');
  });
  it('prefers the header over the query string and ignores other schemes', () => {
    expect(extractApiKey(req({ 'x-api-key': 'h' }, { api_key: 'q' }))).toBe('h');
    expect(extractApiKey(req({ authorization: 'Basic dXNlcjpwYXNz' }))).toBeUndefined();
    expect(extractApiKey(req({}))).toBeUndefined();
  });
  it('treats an empty key as present, so it is refused rather than ignored', () => {
    expect(extractApiKey(req({ 'x-api-key': '' }))).toBe('');
    expect(extractApiKey(req({}, { api_key: '' }))).toBe('');
  });
});

describe('howToGetAKey', () => {
  it('points to sign-in when OpenID Connect is configured, else to the support contact', () => {
    const signIn = howToGetAKey(testConfig({ OIDC_ISSUER: 'https://id.example', BASE_URL: 'https://mds.example' }));
    expect(signIn).toContain('signing in at https://mds.example/account');
    const support = howToGetAKey(testConfig({ SUPPORT_CONTACT: 'keys@mds.example' }));
    expect(support).toContain('Ask keys@mds.example');
    expect(support).toContain('X-API-Key');
    // All four ways extractApiKey reads a key.
    for (const way of ['X-API-Key', 'Authorization: Bearer', 'api_key', 'secret']) expect(support).toContain(way);
  });
});

describe('clientBucket', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped ones', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });
  it('groups an IPv6 address by its /64', () => {
    expect(clientBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
  });
});

describe('ImmediateMemoryLimiter', () => {
  // consumeNow reads the memory store's storage directly: these keep it in step with `consume`.
  it('counts and refuses exactly as consume does', async () => {
    const viaPromise = new ImmediateMemoryLimiter({ keyPrefix: 'a', points: 3, duration: 60 });
    const immediate = new ImmediateMemoryLimiter({ keyPrefix: 'b', points: 3, duration: 60 });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const expected = await viaPromise.consume('ip:1').then(
        (result) => ({ result, rejected: false }),
        (result: RateLimiterRes) => ({ result, rejected: true }),
      );
      const actual = immediate.consumeNow('ip:1');
      expect(actual.rejected, `attempt ${attempt}`).toBe(expected.rejected);
      expect(actual.result.consumedPoints).toBe(expected.result.consumedPoints);
      expect(actual.result.remainingPoints).toBe(expected.result.remainingPoints);
      expect(Math.abs(actual.result.msBeforeNext - expected.result.msBeforeNext)).toBeLessThan(1_000);
    }
    expect(immediate.consumeNow('ip:2').rejected).toBe(false);
  });
  it('shares one count with consume and get', async () => {
    const limiter = new ImmediateMemoryLimiter({ points: 2, duration: 60 });
    limiter.consumeNow('k');
    await limiter.consume('k');
    expect((await limiter.get('k'))?.consumedPoints).toBe(2);
    expect(limiter.consumeNow('k').rejected).toBe(true);
  });
});

describe('decide', () => {
  const outcome = (points: number, remaining: number, ms: number, rejected = false) => ({
    points,
    rejected,
    result: new RateLimiterRes(remaining, ms, points - remaining),
  });
  it('describes the limit with the fewest requests left', () => {
    const decision = decide([outcome(20, 5, 30_000), outcome(1000, 900, 3_000_000)]);
    expect(decision).toEqual({
      allowed: true,
      retryAfterSeconds: 0,
      headers: { 'RateLimit-Limit': '20', 'RateLimit-Remaining': '5', 'RateLimit-Reset': '30' },
    });
  });
  it('refuses with Retry-After when any limit is exhausted', () => {
    const decision = decide([outcome(20, 0, 12_400, true), outcome(1000, 900, 3_000_000)]);
    expect(decision.allowed).toBe(false);
    expect(decision.retryAfterSeconds).toBe(13);
    expect(decision.headers).toMatchObject({ 'RateLimit-Limit': '20', 'RateLimit-Remaining': '0', 'Retry-After': '13' });
  });
  it('describes a refusing limit even when another has fewer requests left', () => {
    const decision = decide([outcome(20, 3, 30_000), outcome(1000, 0, 1_800_000, true)]);
    expect(decision.allowed).toBe(false);
    expect(decision.headers).toMatchObject({ 'RateLimit-Limit': '1000', 'RateLimit-Remaining': '0', 'Retry-After': '1800' });
  });
  it('with several limits refusing, names the longest wait', () => {
    const decision = decide([outcome(20, 0, 40_000, true), outcome(1000, 0, 900_000, true)]);
    expect(decision.retryAfterSeconds).toBe(900);
    expect(decision.headers['RateLimit-Limit']).toBe('1000');
  });
});

describe('canGiveBack', () => {
  const counted = (windowEndsAt?: number) => ({ points: 20, result: new RateLimiterRes(0, 0, 21), rejected: true, windowEndsAt });

  it('gives a count back only to a window that outlasts the give-back', () => {
    const now = 1_000_000;
    expect(canGiveBack(counted(now + 30_000), now)).toBe(true);
    expect(canGiveBack(counted(now + STORE_TIMEOUT_MS + 1), now)).toBe(true);
    // Within a give-back's time of its end the window may be gone when the -1 arrives, and the -1
    // would open the next window one count short: the count stays spent instead.
    expect(canGiveBack(counted(now + STORE_TIMEOUT_MS), now)).toBe(false);
    expect(canGiveBack(counted(now + 10), now)).toBe(false);
    expect(canGiveBack(counted(now - 1), now)).toBe(false);
    expect(canGiveBack(counted(undefined), now)).toBe(false);
  });
});

describe('signed cookies', () => {
  /** A request carrying cookie `c` as a browser sends back what Express set (URL-encoded). */
  const carrying = (value: string) => ({ headers: { cookie: `other=1; c=${encodeURIComponent(value)}` } });

  it('round-trips and rejects tampering or another secret', () => {
    const signed = sign('abc', 'secret-1');
    expect(readSignedCookie(carrying(signed), 'c', 'secret-1')).toBe('abc');
    expect(readSignedCookie(carrying(signed), 'c', 'secret-2')).toBeUndefined();
    expect(readSignedCookie(carrying(signed.replace('abc', 'abd')), 'c', 'secret-1')).toBeUndefined();
    expect(readSignedCookie(carrying('no-signature'), 'c', 'secret-1')).toBeUndefined();
    expect(readSignedCookie(carrying(signed), 'absent', 'secret-1')).toBeUndefined();
  });
});
