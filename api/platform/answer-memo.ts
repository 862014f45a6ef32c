// Answers remembered per normalised request, each serialised to JSON once: a capability whose
// answers depend only on the request and on data that changes between syncs (statistics, escrow)
// hands a repeat request the same string, so the route sends cached bytes and ETag without
// rebuilding or re-serialising anything. Bounded by entry count (oldest dropped first), so a flood
// of distinct requests costs only the work each would have cost anyway.
import { preSerialize, type PreSerialized } from './http/api-registry.ts';

export interface RememberedAnswer<T> {
  /** Shared by every caller that asks the same thing: never changed after it is remembered. */
  answer: T;
  json: PreSerialized<T>;
}

export class AnswerMemo<T> {
  private readonly entries = new Map<string, RememberedAnswer<T>>();
  private readonly maxEntries: number;

  constructor(maxEntries: number) {
    this.maxEntries = maxEntries;
  }

  get(key: string): RememberedAnswer<T> | undefined {
    return this.entries.get(key);
  }

  /** Remembers `answer` under `key` (serialising it once) and returns the entry. */
  remember(key: string, answer: T): RememberedAnswer<T> {
    const entry = { answer, json: preSerialize(answer) };
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
