// A request refused by one limit does not spend another limit's budget, in every store: a burst of
// 1,000 requests without a key is answered 20 times, and the client is served again after its
// minute, its hour spent only by the requests it was served. The store's own clock decides when a
// window ends. The memory and PostgreSQL stores read it from the process (Date.now(), the expiry
// they keep in memory or in rows): the test sets that clock, the window ends when the store says
// (its Retry-After) without waiting for it, and the windows keep their real lengths. Redis expires
// keys on its own clock: there the windows are shortened to seconds, as short as this machine allows
// (shortWindow), and the test waits for them. Waiting out real windows in the PostgreSQL store
// (five times a 1,000-request burst's time, 0.5-3 s a burst) made this one of the longest files.
// The stores run one after the other (the set clock is the whole process's).
import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLimiter, type Limiter, type LimitDecision } from '../../api/access/limiter.ts';
import type { Identity } from '../../api/access/identity.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const stores = ['memory', 'postgres', 'redis'] as const;
/** The stores whose windows end by the process's clock (Date.now()), which the test can set. */
const onProcessClock = new Set<string>(['memory', 'postgres']);
/** A minute, as the service counts it. */
const MINUTE = 60;

/** `count` requests, `concurrency` at a time (a shared store's pool is not a queue for thousands). */
async function burst(limiter: Limiter, identity: Identity, count: number, concurrency = 50): Promise<LimitDecision[]> {
  const decisions: LimitDecision[] = [];
  for (let sent = 0; sent < count; sent += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, count - sent) }, () => limiter.consume(identity));
    decisions.push(...(await Promise.all(batch)));
  }
  return decisions;
}

const served = (decisions: LimitDecision[]) => decisions.filter((decision) => decision.allowed).length;

/** Lets `seconds` pass: on the set clock at once, else in real time. */
type Wait = (seconds: number) => Promise<void>;
const sleep: Wait = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
const advanceClock: Wait = async (seconds) => void vi.setSystemTime(Date.now() + seconds * 1_000);

/**
 * Waits until the first window that refused any of `answered` has ended, as the store said (its
 * Retry-After, in whole seconds rounded up), then asks again, until a request is served; returns
 * that decision (the served request counts in its windows like any other). Of a burst's refusals the
 * soonest is the one to wait for: requests in flight together may meet the minute before the hour
 * refuses them. It waits for the store's own reset rather than polling, so what it counts does not
 * depend on requests refused at a window's edge (whose counts the limiter keeps: see canGiveBack).
 * Fails after twice the window and 10 s.
 */
async function untilServed(
  limiter: Limiter,
  identity: Identity,
  answered: LimitDecision[],
  windowSeconds: number,
  wait: Wait,
): Promise<LimitDecision> {
  const deadline = Date.now() + windowSeconds * 2_000 + 10_000;
  let seconds = Math.min(...answered.filter((decision) => !decision.allowed).map((decision) => decision.retryAfterSeconds));
  for (;;) {
    await wait(seconds);
    const decision = await limiter.consume(identity);
    if (decision.allowed) return decision;
    if (Date.now() > deadline) throw new Error(`still refused ${windowSeconds * 2 + 10} s later: ${JSON.stringify(decision.headers)}`);
    seconds = decision.retryAfterSeconds;
  }
}

describe.each(stores)('limits that forgive refusals (%s store)', (store) => {
  const setClock = onProcessClock.has(store);
  const wait = setClock ? advanceClock : sleep;
  let database: TestDatabase | undefined;
  const opened: Limiter[] = [];
  const prefixes: string[] = [];

  async function open(limits: { anon: number; hour: number }, windows: { minuteSeconds: number; hourSeconds: number }): Promise<Limiter> {
    const limiter = await createLimiter(
      {
        RATE_LIMIT_ANON_PER_MINUTE: limits.anon,
        RATE_LIMIT_KEY_PER_MINUTE: 100,
        RATE_LIMIT_PER_HOUR: limits.hour,
        RATE_LIMIT_STORE: store,
        REDIS_URL,
        DATABASE_URL: database?.url,
      },
      store === 'postgres' ? 'postgres' : 'pglite',
      createLogger(process.env.DEBUG_LIMITS ? 'warn' : 'silent'),
      windows,
    );
    expect(limiter.store).toBe(store);
    opened.push(limiter);
    return limiter;
  }

  /** A client address of its own per test, so runs sharing one Redis never share a budget. */
  function client(): Identity {
    const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    prefixes.push(ip);
    return { kind: 'anonymous', ip };
  }

  /**
   * The window for bursts of `count` in this store, in seconds. On the set clock, a minute: time
   * stands still during a burst, so it always stays in one window. In Redis, a short window: five
   * times as long as such a burst took here just now, and at least 2 s, so that a burst stays in one
   * window (a window starts at its first request) however busy the machine is, and the test waits
   * no longer than it must.
   */
  async function shortWindow(count: number): Promise<number> {
    if (setClock) return MINUTE;
    const limiter = await open({ anon: 20, hour: 50 }, { minuteSeconds: 3_600, hourSeconds: 3_600 });
    const started = performance.now();
    await burst(limiter, client(), count);
    return Math.max(2, Math.ceil((5 * (performance.now() - started)) / 1_000));
  }

  beforeAll(async () => {
    if (store === 'postgres') database = await createTestDatabase('postgres');
    // Date alone: the database client's and the limiter's timers keep real time.
    if (setClock) vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  });
  afterAll(async () => {
    if (setClock) vi.useRealTimers();
    await Promise.all(opened.map((limiter) => limiter.close()));
    await database?.drop();
    if (store === 'redis') {
      const redis = new Redis(REDIS_URL);
      for (const ip of prefixes) {
        const keys = await redis.keys(`mds:*ip:${ip}`);
        if (keys.length > 0) await redis.del(...keys);
      }
      redis.disconnect();
    }
  });

  it(
    'answers 20 of a 1,000-request burst, serves the client again after its minute, and counts only served requests in its hour',
    { timeout: 120_000 },
    async () => {
      const window = await shortWindow(1_000);
      const limiter = await open({ anon: 20, hour: 50 }, { minuteSeconds: window, hourSeconds: 3_600 });
      const identity = client();
      const first = await burst(limiter, identity, 1_000);
      expect(served(first)).toBe(20);
      // Every refusal names the minute: the hour was not touched by them.
      const refusals = first.filter((decision) => !decision.allowed);
      expect(refusals.every((decision) => decision.headers['RateLimit-Limit'] === '20' && decision.retryAfterSeconds <= window)).toBe(true);

      // The minute ends: one request served, then 19 of the next burst.
      await untilServed(limiter, identity, first, window, wait);
      const second = await burst(limiter, identity, 1_000);
      expect(1 + served(second)).toBe(20);

      await untilServed(limiter, identity, second, window, wait);
      // 41 served so far: the hour (50) has 9 left, and now binds.
      const third = await burst(limiter, identity, 1_000);
      expect(1 + served(third)).toBe(10);
      // (Requests in flight may meet the minute first; once they settle, the hour is what refuses.)
      const [last] = await burst(limiter, identity, 1);
      expect(last!.allowed).toBe(false);
      expect(last!.headers['RateLimit-Limit']).toBe('50');
      expect(last!.retryAfterSeconds).toBeGreaterThan(3_000);
    },
  );

  it('does not spend the minute on requests the hour refuses', { timeout: 120_000 }, async () => {
    // A short "hour" and a long "minute": the mirror image of the case above.
    const window = await shortWindow(200);
    const limiter = await open({ anon: 30, hour: 5 }, { minuteSeconds: 3_600, hourSeconds: window });
    const identity = client();
    const first = await burst(limiter, identity, 200);
    expect(served(first)).toBe(5);
    // The hour ends: one request served, then 4 of the next burst (twice).
    await untilServed(limiter, identity, first, window, wait);
    const second = await burst(limiter, identity, 200);
    expect(1 + served(second)).toBe(5);
    await untilServed(limiter, identity, second, window, wait);
    expect(1 + served(await burst(limiter, identity, 200))).toBe(5);
    // 15 of the minute's 30 were served; had the 585 refusals (and the asking) counted, nothing would be left.
    const [decision] = await burst(limiter, identity, 1);
    expect(decision!.allowed).toBe(false);
    const next = await untilServed(limiter, identity, [decision!], window, wait);
    expect(next.headers['RateLimit-Limit']).toBe('5');
  });
});
