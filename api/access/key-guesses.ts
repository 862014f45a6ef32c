// Key guessing made expensive: failed API-key attempts are counted per client address (an IPv6
// client per /64, as the anonymous limit counts it), and an address past a few failures in a window
// is answered 429 for every request carrying a key until the window ends, with no database look-up.
// A valid key from that address waits too: otherwise the one guess that hits would stand out.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { withTimeout } from './limiter-stores.ts';

/** Failed key attempts an address may make per window before it must wait. */
export const KEY_GUESSES_ALLOWED = 10;
/** The window, in seconds: a client that mistyped its key ten times waits at most this long. */
export const KEY_GUESS_WINDOW_SECONDS = 15 * 60;

export interface KeyGuesses {
  /** Seconds the address must wait before it may send a key again; 0 when it may now. */
  waitFor(bucket: string): Promise<number>;
  /** Counts one failed attempt of the address. */
  failed(bucket: string): Promise<void>;
}

/**
 * Counts in `store` (a limiter of KEY_GUESSES_ALLOWED points per KEY_GUESS_WINDOW_SECONDS). A store
 * that fails lets the attempt through, as the rate limits do: their outage must not lock keys out.
 */
export function createKeyGuesses(store: RateLimiterAbstract): KeyGuesses {
  return {
    async waitFor(bucket) {
      const counted = await withTimeout(store.get(bucket)).catch(() => null);
      if (counted === null || counted.consumedPoints < store.points || counted.msBeforeNext <= 0) return 0;
      return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
    },
    async failed(bucket) {
      await withTimeout(store.penalty(bucket, 1)).catch(() => undefined);
    },
  };
}
