// The rate limits in words, from the running configuration: every page, file and message that
// states them says the same thing (and "no limit" where a limit is set to 0, i.e. off).
import type { Config } from '../config.ts';

export type LimitConfig = Pick<Config, 'RATE_LIMIT_ANON_PER_MINUTE' | 'RATE_LIMIT_KEY_PER_MINUTE' | 'RATE_LIMIT_PER_HOUR'>;

function phrase(limit: number, per: string, who: string): string {
  return limit === 0 ? `no limit per ${per} ${who}` : `${limit.toLocaleString('en-US')} requests per ${per} ${who}`;
}

export function rateLimitPhrases(config: LimitConfig): { anonymous: string; withKey: string; hourly: string } {
  return {
    anonymous: phrase(config.RATE_LIMIT_ANON_PER_MINUTE, 'minute', 'per IP'),
    withKey: phrase(config.RATE_LIMIT_KEY_PER_MINUTE, 'minute', 'per key'),
    hourly: phrase(config.RATE_LIMIT_PER_HOUR, 'hour', 'per key or IP'),
  };
}
