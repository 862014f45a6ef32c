// The one in-memory cache every service uses: least recently used entries go first, and each cache
// is bounded by the bytes its entries hold (estimated once, when an entry is kept), optionally by an
// entry count, and, where an answer may only be so stale, by a time to live. Built on lru-cache.
import { LRUCache } from 'lru-cache';
import type { Clock } from './clock.ts';
import type { PreSerialized } from './pre-serialized.ts';
import type { CacheCounter } from './cache-meter.ts';

export interface BoundedCacheOptions<V> {
  /** Bound on the estimated bytes of all entries together; an entry larger than this is not kept. */
  maxBytes: number;
  /** Optional bound on the number of entries as well. */
  maxEntries?: number;
  /** Entries expire this long after they were kept; 0 keeps nothing, undefined keeps them until evicted. */
  ttlMs?: number;
  /** Estimated bytes of an entry (default: twice the length of its JSON, a string's UTF-16 size). */
  sizeOf?: (value: V, key: string) => number;
  /** The time TTLs are judged against (tests pass a fake one). */
  clock?: Clock;
  /** Where get() counts its hits and misses (./cache-meter.ts), for the caches on a request's path. */
  counter?: CacheCounter;
}

/** Estimated bytes of a value: UTF-16 strings are two bytes a character; anything else by its JSON. */
export function estimatedBytes(value: unknown): number {
  if (typeof value === 'string') return 2 * value.length + 16;
  if (value === undefined) return 16;
  try {
    return 2 * (JSON.stringify(value)?.length ?? 0) + 16;
  } catch {
    return 1_024; // not serialisable (a cycle, a BigInt): a nominal size still counts it
  }
}

export class BoundedCache<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, V>;
  private readonly keepsNothing: boolean;
  private readonly counter: CacheCounter | undefined;

  constructor(options: BoundedCacheOptions<V>) {
    this.counter = options.counter;
    const sizeOf = options.sizeOf ?? ((value: V) => estimatedBytes(value));
    const clock = options.clock;
    this.keepsNothing = options.ttlMs !== undefined && options.ttlMs <= 0;
    this.entries = new LRUCache<string, V>({
      maxSize: options.maxBytes,
      maxEntrySize: options.maxBytes,
      sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(value, key))),
      ...(options.maxEntries === undefined ? {} : { max: options.maxEntries }),
      // lru-cache counts an entry stale once its age exceeds the TTL; it expires when the TTL is reached.
      ...(options.ttlMs === undefined || this.keepsNothing ? {} : { ttl: Math.max(1, options.ttlMs - 1), ttlResolution: 0 }),
      ...(clock ? { perf: { now: () => clock().getTime() } } : {}),
    });
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (this.counter !== undefined) {
      if (value === undefined) this.counter.misses += 1;
      else this.counter.hits += 1;
    }
    return value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, value: V): void {
    if (this.keepsNothing) return;
    this.entries.set(key, value);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The keys held, most recently used first. */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held now. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }
}

/** An answer with its JSON serialised once: a repeat request is handed the same string (and ETag). */
export interface RememberedAnswer<T> {
  /** Shared by every caller that asks the same thing: never changed after it is remembered. */
  answer: T;
  json: PreSerialized<T>;
}

/** Estimated bytes of a remembered answer: its JSON (one byte a character) and the answer's objects, about twice that. */
export const rememberedAnswerBytes = (entry: { json: string }): number => 3 * entry.json.length + 64;

/** A cache of remembered answers, bounded by their estimated bytes (and optionally count and TTL). */
export function answerCache<T>(options: Omit<BoundedCacheOptions<RememberedAnswer<T>>, 'sizeOf'>): BoundedCache<RememberedAnswer<T>> {
  return new BoundedCache<RememberedAnswer<T>>({ ...options, sizeOf: rememberedAnswerBytes });
}

/** Serialises `answer` once, keeps it under `key` and returns the entry. */
export function rememberAnswer<T>(cache: BoundedCache<RememberedAnswer<T>>, key: string, answer: T): RememberedAnswer<T> {
  const entry = { answer, json: JSON.stringify(answer) as PreSerialized<T> };
  cache.set(key, entry);
  return entry;
}
