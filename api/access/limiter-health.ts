// Whether the shared rate-limit store answers. While it does not, requests pass unlimited (an outage
// of the limiter must not become an outage of the API); /healthz says `degraded` and the log says so
// once when the outage starts and once when the store answers again, never in between.
import type { Logger } from '../platform/logger.ts';

/** Where the rate-limit counts are kept. */
export type LimitStore = 'memory' | 'postgres' | 'redis';

export interface LimitStoreStatus {
  store: LimitStore;
  /** `off` when every limit is 0; `unavailable` while requests pass unlimited. */
  state: 'ok' | 'unavailable' | 'off';
  /** When the store stopped answering (ISO 8601), while unavailable. */
  since?: string;
  /** Requests let through without a count since then. */
  passed_unlimited?: number;
}

export class StoreHealth {
  private failingSince: Date | undefined;
  private passed = 0;
  private readonly store: LimitStore;
  private readonly logger: Logger;

  constructor(store: LimitStore, logger: Logger) {
    this.store = store;
    this.logger = logger;
  }

  /** The store failed or did not answer in time. Logs only the first failure of an outage. */
  failed(error: unknown): void {
    if (this.failingSince !== undefined) return;
    this.failingSince = new Date();
    this.passed = 0;
    this.logger.warn(
      { err: error instanceof Error ? error.message : String(error), store: this.store },
      'rate-limit store unavailable: requests pass unlimited until it answers',
    );
  }

  /** One request let through uncounted because the store is down. */
  passedUnlimited(): void {
    this.passed += 1;
  }

  /** The store answered. Cheap when it was not failing: this runs on every counted request. */
  answered(): void {
    if (this.failingSince === undefined) return;
    const seconds = Math.round((Date.now() - this.failingSince.getTime()) / 1000);
    this.logger.warn(
      { store: this.store, outageSeconds: seconds, passedUnlimited: this.passed },
      'rate-limit store answers again: limits apply',
    );
    this.failingSince = undefined;
    this.passed = 0;
  }

  get failing(): boolean {
    return this.failingSince !== undefined;
  }

  status(): LimitStoreStatus {
    if (this.failingSince === undefined) return { store: this.store, state: 'ok' };
    return { store: this.store, state: 'unavailable', since: this.failingSince.toISOString(), passed_unlimited: this.passed };
  }
}
