// Rate limits (contract "Keys and limits"): per client IP without a key, per key with one, and an
// hourly cap per key or IP, in one of three rate-limiter-flexible stores (./limiter-stores.ts).
//
// A request refused by one limit spends no limit's budget: limits are counted in order, the first
// refusal stops the count, and the limits that counted the refused request give it back. A client
// without a key that bursts 1,000 requests is answered 20 times and served again after its minute;
// the 980 refusals do not touch its hour.
//
// A store that fails or is slow lets the request through: an outage of the limiter must not become
// an outage of the API. /healthz reports it (`degraded`) and the log says when it starts and ends.
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Identity } from './identity.ts';
import type { LimitStore, LimitStoreStatus } from './limiter-health.ts';
import { ImmediateMemoryLimiter, openStores, STORE_TIMEOUT_MS, withTimeout } from './limiter-stores.ts';
import { createKeyGuesses, KEY_GUESS_WINDOW_SECONDS, KEY_GUESSES_ALLOWED, type KeyGuesses } from './key-guesses.ts';

export { ImmediateMemoryLimiter } from './limiter-stores.ts';
export type { LimitStore, LimitStoreStatus } from './limiter-health.ts';

export interface LimitDecision {
  allowed: boolean;
  /** RateLimit-* headers (and Retry-After when refused); empty when every limit is off or failed open. */
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

export interface Limiter {
  readonly store: LimitStore;
  /** False when every limit is 0 (off): nothing is counted and no headers are sent. */
  readonly active: boolean;
  /** Counts `points` requests (default one; an MCP batch counts each call), all or none. */
  consume(identity: Identity, points?: number): Promise<LimitDecision>;
  /**
   * The decision at once, where the store can count without waiting (the memory store); undefined
   * for the shared stores, whose answer only `consume` can await.
   */
  consumeNow(identity: Identity, points?: number): LimitDecision | undefined;
  /** The store's state for /healthz; a shared store is asked (at most every few seconds). */
  check(): Promise<LimitStoreStatus>;
  /** Failed key attempts per address, in the same store; counted even when the rate limits are off. */
  readonly keyGuesses: KeyGuesses;
  close(): Promise<void>;
}

/** The settings the limiter reads: each limit, and the store that counts them. */
export type LimitConfig = Pick<
  Config,
  'RATE_LIMIT_ANON_PER_MINUTE' | 'RATE_LIMIT_KEY_PER_MINUTE' | 'RATE_LIMIT_PER_HOUR' | 'RATE_LIMIT_STORE' | 'REDIS_URL' | 'DATABASE_URL'
>;

export interface LimiterOptions {
  /** Window lengths in seconds (tests shorten them); default 60 and 3,600. */
  minuteSeconds?: number;
  hourSeconds?: number;
  /** The failed-key window in seconds (default KEY_GUESS_WINDOW_SECONDS). */
  keyGuessSeconds?: number;
}

const UNLIMITED: LimitDecision = Object.freeze({ allowed: true, headers: Object.freeze({}), retryAfterSeconds: 0 });

/** /healthz asks a shared store at most this often. */
const PROBE_INTERVAL_MS = 5_000;

/**
 * IPv6 clients get a /64 each (what one subscriber is usually given), so rotating addresses inside
 * it does not multiply the anonymous budget. IPv4 and IPv4-mapped addresses are used as they are.
 */
export function clientBucket(ip: string): string {
  if (!ip.includes(':')) return ip;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.slice('::ffff:'.length);
  const [head = '', tail = ''] = ip.split('%')[0]!.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** One configured limit: its budget and the limiter that counts it. */
interface LimitEntry {
  points: number;
  limiter: RateLimiterAbstract;
}

export interface Outcome {
  points: number;
  result: RateLimiterRes;
  rejected: boolean;
  /** When the window that counted it ends (ms since the epoch), as of the store's answer. */
  windowEndsAt?: number;
}

/**
 * Whether a shared store's count can still be given back to the window that took it. The store
 * gives a count back by adding -1 to the key; once the window has ended that key is gone, and the
 * -1 would open the next window one request short of a full count (a client refused at a window's
 * edge, 50 at once, would get 50 requests over its limit). A give-back takes at most
 * STORE_TIMEOUT_MS to reach the store, so a count whose window ends sooner than that stays spent:
 * it falls away with its window a moment later.
 */
export function canGiveBack(outcome: Outcome, now: number): boolean {
  return outcome.windowEndsAt !== undefined && outcome.windowEndsAt - now > STORE_TIMEOUT_MS;
}

export async function createLimiter(
  config: LimitConfig,
  dbKind: 'postgres' | 'pglite',
  logger: Logger,
  options: LimiterOptions = {},
): Promise<Limiter> {
  const stores = await openStores(config, dbKind, logger);
  const storeHealth = stores.health;
  const limiter = (keyPrefix: string, points: number, duration: number): LimitEntry | undefined =>
    points > 0 ? { points, limiter: stores.make({ keyPrefix, points, duration }) } : undefined;
  const minute = options.minuteSeconds ?? 60;
  const anonMinute = limiter('mds:anon:minute', config.RATE_LIMIT_ANON_PER_MINUTE, minute);
  const keyMinute = limiter('mds:key:minute', config.RATE_LIMIT_KEY_PER_MINUTE, minute);
  const hour = limiter('mds:hour', config.RATE_LIMIT_PER_HOUR, options.hourSeconds ?? 3_600);
  // The limits that count each kind of request, settled once: its kind's minute limit and the
  // hourly one, each only when on.
  const configured = (...entries: (LimitEntry | undefined)[]) => entries.filter((entry): entry is LimitEntry => entry !== undefined);
  const anonLimits = configured(anonMinute, hour);
  const keyLimits = configured(keyMinute, hour);
  const limitsOf = (identity: Identity) => (identity.kind === 'key' ? keyLimits : anonLimits);
  const active = anonLimits.length > 0 || keyLimits.length > 0;

  /** One count in a shared store, which may fail or hang: a refusal is an outcome, a failure throws. */
  function consumeShared(entry: LimitEntry, key: string, points: number): Promise<Outcome> {
    return withTimeout(entry.limiter.consume(key, points)).then(
      (result) => ({ points: entry.points, result, rejected: false, windowEndsAt: Date.now() + result.msBeforeNext }),
      (error: unknown) => {
        if (error instanceof RateLimiterRes)
          return { points: entry.points, result: error, rejected: true, windowEndsAt: Date.now() + error.msBeforeNext };
        throw error;
      },
    );
  }

  const bucketOf = (identity: Identity) => (identity.kind === 'key' ? `key:${identity.keyId}` : `ip:${clientBucket(identity.ip)}`);

  const passUnlimited = (error: unknown): LimitDecision => {
    storeHealth.failed(error);
    storeHealth.passedUnlimited();
    return UNLIMITED;
  };

  /**
   * Counts the request limit by limit, in order (the minute before the hour), stopping at the first
   * that refuses it; every limit that counted it, the refusing one too, gives the count back. So each
   * limit counts only the requests it served (plus, for a moment, the ones in flight), and a refusal
   * spends nothing anywhere.
   */
  function consumeSharedInOrder(limits: LimitEntry[], bucket: string, points: number, outcomes: Outcome[] = []): Promise<LimitDecision> {
    const entry = limits[outcomes.length];
    if (entry === undefined) {
      storeHealth.answered();
      return Promise.resolve(decide(outcomes));
    }
    return consumeShared(entry, bucket, points).then((outcome) => {
      outcomes.push(outcome);
      if (!outcome.rejected) return consumeSharedInOrder(limits, bucket, points, outcomes);
      storeHealth.answered();
      const decision = decide(outcomes);
      // A refund that fails leaves one count too many in a window; the refusal stands either way.
      const now = Date.now();
      const refunds = outcomes.flatMap((outcome, index) =>
        canGiveBack(outcome, now) ? [withTimeout(limits[index]!.limiter.reward(bucket, points)).catch(() => undefined)] : [],
      );
      return Promise.all(refunds).then(() => decision);
    });
  }

  function consumeNow(identity: Identity, points = 1): LimitDecision | undefined {
    const limits = limitsOf(identity);
    if (limits.length === 0) return UNLIMITED;
    if (stores.store !== 'memory') return undefined;
    const bucket = bucketOf(identity);
    // Plain loops: this runs on every API request. In order, stopping at a refusal (see above).
    const outcomes: Outcome[] = [];
    for (let index = 0; index < limits.length; index += 1) {
      const entry = limits[index]!;
      const { result, rejected } = (entry.limiter as ImmediateMemoryLimiter).consumeNow(bucket, points);
      outcomes.push({ points: entry.points, result, rejected });
      if (rejected) {
        for (let counted = 0; counted <= index; counted += 1)
          (limits[counted]!.limiter as ImmediateMemoryLimiter).refundNow(bucket, points);
        break;
      }
    }
    return decide(outcomes);
  }

  let lastProbe: { at: number; done: Promise<void> } | undefined;
  async function check(): Promise<LimitStoreStatus> {
    if (!active) return { store: stores.store, state: 'off' };
    if (stores.store !== 'memory' && (lastProbe === undefined || Date.now() - lastProbe.at > PROBE_INTERVAL_MS)) {
      lastProbe = {
        at: Date.now(),
        done: stores.probe().then(
          () => storeHealth.answered(),
          (error: unknown) => storeHealth.failed(error),
        ),
      };
    }
    await lastProbe?.done;
    return storeHealth.status();
  }

  const keyGuesses = createKeyGuesses(
    stores.make({ keyPrefix: 'mds:keyguess', points: KEY_GUESSES_ALLOWED, duration: options.keyGuessSeconds ?? KEY_GUESS_WINDOW_SECONDS }),
  );

  return {
    store: stores.store,
    active,
    consumeNow,
    check,
    keyGuesses,
    // A promise chain rather than an async function: with a shared store this runs on every request.
    consume(identity, points = 1) {
      const immediate = consumeNow(identity, points);
      if (immediate !== undefined) return Promise.resolve(immediate);
      return consumeSharedInOrder(limitsOf(identity), bucketOf(identity), points).catch(passUnlimited);
    },
    close: () => stores.close(),
  };
}

/** The headers describe the binding limit: a refusing one, else the one with the fewest left. */
export function decide(outcomes: Outcome[]): LimitDecision {
  const seconds = (outcome: Outcome) => Math.max(1, Math.ceil(outcome.result.msBeforeNext / 1000));
  // A plain loop: this runs on every API request.
  let binding = outcomes[0]!;
  for (const outcome of outcomes) {
    const bindsHarder = outcome.rejected
      ? !binding.rejected || seconds(outcome) > seconds(binding)
      : !binding.rejected && outcome.result.remainingPoints < binding.result.remainingPoints;
    if (bindsHarder) binding = outcome;
  }
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(binding.points),
    'RateLimit-Remaining': String(Math.max(0, binding.result.remainingPoints)),
    'RateLimit-Reset': String(seconds(binding)),
  };
  if (!binding.rejected) return { allowed: true, headers, retryAfterSeconds: 0 };
  headers['Retry-After'] = headers['RateLimit-Reset']!;
  return { allowed: false, headers, retryAfterSeconds: seconds(binding) };
}
