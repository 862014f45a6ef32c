// Rate limits (contract "Keys and limits"): per client IP without a key, per key with one, and an
// hourly cap per key or IP, in one of three rate-limiter-flexible stores. A store that fails or is
// slow lets the request through with a warning: an outage of the limiter must not become an outage
// of the API.
import pg from 'pg';
import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Identity } from './identity.ts';

export type LimitStore = 'memory' | 'postgres' | 'redis';

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
  consume(identity: Identity): Promise<LimitDecision>;
  /**
   * The decision at once, where the store can count without waiting (the memory store); undefined
   * for the shared stores, whose answer only `consume` can await.
   */
  consumeNow(identity: Identity): LimitDecision | undefined;
  close(): Promise<void>;
}

type LimitConfig = Pick<
  Config,
  'RATE_LIMIT_ANON_PER_MINUTE' | 'RATE_LIMIT_KEY_PER_MINUTE' | 'RATE_LIMIT_PER_HOUR' | 'RATE_LIMIT_STORE' | 'REDIS_URL' | 'DATABASE_URL'
>;

const UNLIMITED: LimitDecision = Object.freeze({ allowed: true, headers: Object.freeze({}), retryAfterSeconds: 0 });

/** A store that does not answer within this time is treated as down for that request. */
const STORE_TIMEOUT_MS = 1_000;
const WARNING_INTERVAL_MS = 30_000;

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
  const groups = ip.includes('::') ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups;
  return `${groups.slice(0, 4).map((group) => group.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * rate-limiter-flexible's memory store, counting without a promise. Its `consume` wraps a
 * synchronous counter in a new promise; on a request served from memory, those promises and their
 * microtask hops cost several times the counting itself (bench "limits"). `consumeNow` does what
 * `consume` does with the options used here (no blockDuration, no execEvenly), on the same storage;
 * a unit test keeps the two in step, so an upgrade that changes that storage fails there first.
 */
export class ImmediateMemoryLimiter extends RateLimiterMemory {
  consumeNow(key: string): { result: RateLimiterRes; rejected: boolean } {
    const storage = (this as unknown as { _memoryStorage: { incrby(key: string, points: number, seconds: number): RateLimiterRes } })
      ._memoryStorage;
    const result = storage.incrby(this.getKey(key), 1, this.duration);
    // As `consume` does: the storage leaves the remaining points to the limiter.
    (result as { remainingPoints: number }).remainingPoints = Math.max(this.points - result.consumedPoints, 0);
    return { result, rejected: result.consumedPoints > this.points };
  }
}

interface Stores {
  store: LimitStore;
  make: (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;
  close: () => Promise<void>;
}

async function openStores(config: LimitConfig, dbKind: 'postgres' | 'pglite', logger: Logger): Promise<Stores> {
  if (config.RATE_LIMIT_STORE === 'postgres') {
    if (dbKind === 'postgres' && config.DATABASE_URL !== undefined) {
      const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 10, connectionTimeoutMillis: STORE_TIMEOUT_MS });
      pool.on('error', (error) => logger.warn({ err: error.message }, 'rate-limit store: idle PostgreSQL client error'));
      return {
        store: 'postgres',
        // The table comes from migration 0202, so instances starting together never race to create it.
        make: (options) =>
          new RateLimiterPostgres({ ...options, storeClient: pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true }),
        close: () => pool.end(),
      };
    }
    logger.warn(
      'RATE_LIMIT_STORE=postgres needs DATABASE_URL (a PostgreSQL server); the embedded database serves one process, so the memory store is used instead.',
    );
  }
  if (config.RATE_LIMIT_STORE === 'redis') {
    // No offline queue: while Redis is unreachable a command fails at once (and the request passes)
    // instead of waiting for a reconnect.
    const client = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    let lastError = 0;
    client.on('error', (error: Error) => {
      if (Date.now() - lastError < WARNING_INTERVAL_MS) return;
      lastError = Date.now();
      logger.warn({ err: error.message }, 'rate-limit store: Redis connection error');
    });
    await client.connect().catch(() => undefined); // the error handler logs it; ioredis keeps retrying
    return {
      store: 'redis',
      make: (options) => new RateLimiterRedis({ ...options, storeClient: client }),
      close: async () => {
        client.disconnect();
      },
    };
  }
  return { store: 'memory', make: (options) => new ImmediateMemoryLimiter(options), close: async () => undefined };
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
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`rate-limit store did not answer in ${STORE_TIMEOUT_MS} ms`)), STORE_TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error || error instanceof RateLimiterRes ? error : new Error(String(error)));
      },
    );
  });
}

export async function createLimiter(config: LimitConfig, dbKind: 'postgres' | 'pglite', logger: Logger): Promise<Limiter> {
  const stores = await openStores(config, dbKind, logger);
  const limiter = (keyPrefix: string, points: number, duration: number): LimitEntry | undefined =>
    points > 0 ? { points, limiter: stores.make({ keyPrefix, points, duration }) } : undefined;
  const anonMinute = limiter('mds:anon:minute', config.RATE_LIMIT_ANON_PER_MINUTE, 60);
  const keyMinute = limiter('mds:key:minute', config.RATE_LIMIT_KEY_PER_MINUTE, 60);
  const hour = limiter('mds:hour', config.RATE_LIMIT_PER_HOUR, 3_600);
  // The limits that count each kind of request, settled once: its kind's minute limit and the
  // hourly one, each only when on.
  const configured = (...entries: (LimitEntry | undefined)[]) => entries.filter((entry): entry is LimitEntry => entry !== undefined);
  const anonLimits = configured(anonMinute, hour);
  const keyLimits = configured(keyMinute, hour);
  const limitsOf = (identity: Identity) => (identity.kind === 'key' ? keyLimits : anonLimits);
  let lastWarning = 0;

  /** One count in a shared store, which may fail or hang: a refusal is an outcome, a failure throws. */
  function consumeShared(entry: LimitEntry, key: string): Promise<Outcome> {
    return withTimeout(entry.limiter.consume(key)).then(
      (result) => ({ points: entry.points, result, rejected: false }),
      (error: unknown) => {
        if (error instanceof RateLimiterRes) return { points: entry.points, result: error, rejected: true };
        throw error;
      },
    );
  }

  /** One count in the memory store, at once. */
  function consumeMemory(entry: LimitEntry, key: string): Outcome {
    const { result, rejected } = (entry.limiter as ImmediateMemoryLimiter).consumeNow(key);
    return { points: entry.points, result, rejected };
  }

  const bucketOf = (identity: Identity) => (identity.kind === 'key' ? `key:${identity.keyId}` : `ip:${clientBucket(identity.ip)}`);
  const passUnlimited = (error: unknown): LimitDecision => {
    if (Date.now() - lastWarning > WARNING_INTERVAL_MS) {
      lastWarning = Date.now();
      logger.warn({ err: (error as Error).message, store: stores.store }, 'rate-limit store unavailable: requests pass unlimited until it answers');
    }
    return UNLIMITED;
  };

  function consumeNow(identity: Identity): LimitDecision | undefined {
    const limits = limitsOf(identity);
    if (limits.length === 0) return UNLIMITED;
    if (stores.store !== 'memory') return undefined;
    const bucket = bucketOf(identity);
    return decide(limits.map((entry) => consumeMemory(entry, bucket)));
  }

  return {
    store: stores.store,
    active: anonLimits.length > 0 || keyLimits.length > 0,
    consumeNow,
    // A promise chain rather than an async function: with a shared store this runs on every request.
    consume(identity) {
      const immediate = consumeNow(identity);
      if (immediate !== undefined) return Promise.resolve(immediate);
      const bucket = bucketOf(identity);
      return Promise.all(limitsOf(identity).map((entry) => consumeShared(entry, bucket))).then(decide, passUnlimited);
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
