// The three places rate-limit counters can live: this process's memory, the PostgreSQL of
// DATABASE_URL (table `rate_limits`, migration 0202) or Redis. The two shared ones let several
// instances share one budget; each can also be probed, so /healthz notices an outage (and its end)
// even when no request is counting.
import pg from 'pg';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { Logger } from '../platform/logger.ts';
import { StoreHealth, type LimitStore } from './limiter-health.ts';

/** A store that does not answer within this time is treated as down for that request. */
export const STORE_TIMEOUT_MS = 1_000;

export type StoreConfig = Pick<Config, 'RATE_LIMIT_STORE' | 'REDIS_URL' | 'DATABASE_URL'>;

interface MemoryStorage {
  incrby(key: string, points: number, seconds: number): RateLimiterRes;
  get(key: string): RateLimiterRes | null;
}

/**
 * rate-limiter-flexible's memory store, counting without a promise. Its `consume` wraps a
 * synchronous counter in a new promise; on a request served from memory, those promises and their
 * microtask hops cost several times the counting itself (bench "limits"). `consumeNow` does what
 * `consume` does with the options used here (no blockDuration, no execEvenly), on the same storage;
 * a unit test keeps the two in step, so an upgrade that changes that storage fails there first.
 */
export class ImmediateMemoryLimiter extends RateLimiterMemory {
  private get storage(): MemoryStorage {
    return (this as unknown as { _memoryStorage: MemoryStorage })._memoryStorage;
  }

  consumeNow(key: string, points = 1): { result: RateLimiterRes; rejected: boolean } {
    const result = this.storage.incrby(this.getKey(key), points, this.duration);
    // As `consume` does: the storage leaves the remaining points to the limiter.
    (result as { remainingPoints: number }).remainingPoints = Math.max(this.points - result.consumedPoints, 0);
    return { result, rejected: result.consumedPoints > this.points };
  }

  /** Takes back counts of the current window; a window that has ended is left alone. */
  refundNow(key: string, points = 1): void {
    const storageKey = this.getKey(key);
    const current = this.storage.get(storageKey);
    if (current !== null && current.msBeforeNext > 0) this.storage.incrby(storageKey, -points, this.duration);
  }
}

export interface Stores {
  store: LimitStore;
  make: (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;
  /** Resolves when the store answers a trivial command within STORE_TIMEOUT_MS; the memory store always does. */
  probe: () => Promise<void>;
  health: StoreHealth;
  close: () => Promise<void>;
}

/**
 * The store's answer, or an error after STORE_TIMEOUT_MS. When the timer fires, the decision waits
 * one more turn of the event loop (setImmediate runs after pending I/O): after this process was busy
 * for a second, an answer that arrived meanwhile is read first, so our own stall is not mistaken for
 * a slow store (which would let the request pass uncounted).
 */
export function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (!settled) reject(new Error(`rate-limit store did not answer in ${STORE_TIMEOUT_MS} ms`));
      });
    }, STORE_TIMEOUT_MS);
    promise.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(error instanceof Error || error instanceof RateLimiterRes ? error : new Error(String(error)));
      },
    );
  });
}

export async function openStores(config: StoreConfig, dbKind: 'postgres' | 'pglite', logger: Logger): Promise<Stores> {
  if (config.RATE_LIMIT_STORE === 'postgres') {
    if (dbKind === 'postgres' && config.DATABASE_URL !== undefined) {
      const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 10, connectionTimeoutMillis: STORE_TIMEOUT_MS });
      const health = new StoreHealth('postgres', logger);
      // An idle client losing its connection is the start of an outage (or a restart of the server).
      pool.on('error', (error) => health.failed(error));
      return {
        store: 'postgres',
        // The table comes from migration 0202, so instances starting together never race to create it.
        make: (options) =>
          new RateLimiterPostgres({ ...options, storeClient: pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true }),
        probe: async () => {
          await withTimeout(pool.query('SELECT 1'));
        },
        health,
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
    const health = new StoreHealth('redis', logger);
    // ioredis reports every failed reconnect; the health record logs only the first of an outage.
    client.on('error', (error: Error) => health.failed(error));
    client.on('ready', () => health.answered());
    await client.connect().catch(() => undefined); // the error handler records it; ioredis keeps retrying
    return {
      store: 'redis',
      make: (options) => new RateLimiterRedis({ ...options, storeClient: client }),
      probe: async () => {
        await withTimeout(client.ping());
      },
      health,
      close: async () => {
        client.disconnect();
      },
    };
  }
  return {
    store: 'memory',
    make: (options) => new ImmediateMemoryLimiter(options),
    probe: async () => undefined,
    health: new StoreHealth('memory', logger),
    close: async () => undefined,
  };
}
