// Built files carry placeholder addresses and limit figures; the server writes its own in their place.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { BUILD_ADDRESS_ENV, withRunningAddresses } from '../../api/platform/static/build-origin.ts';
import { rateLimitPhrases } from '../../api/platform/rate-limit-text.ts';

describe('the running addresses and limits in built files', () => {
  const built = loadConfig({ ...BUILD_ADDRESS_ENV, LOG_LEVEL: 'silent' });
  const builtText = `Limits: ${Object.values(rateLimitPhrases(built)).join('; ')}. Docs at ${built.baseUrl}/docs/api.`;

  it('replaces the build placeholders with the running limits and address', () => {
    const running = {
      baseUrl: 'https://mds.example',
      API_HOST: 'api.mds.example',
      RATE_LIMIT_ANON_PER_MINUTE: 20,
      RATE_LIMIT_KEY_PER_MINUTE: 100,
      RATE_LIMIT_PER_HOUR: 1000,
    };
    expect(withRunningAddresses(builtText, running)).toBe(
      'Limits: 20 requests per minute per IP; 100 requests per minute per key; 1,000 requests per hour per key or IP. Docs at https://mds.example/docs/api.',
    );
  });

  it('says "no limit" for a limit that is off, never "0 requests per minute"', () => {
    const running = {
      baseUrl: 'http://localhost:3000',
      API_HOST: 'api.localhost',
      RATE_LIMIT_ANON_PER_MINUTE: 0,
      RATE_LIMIT_KEY_PER_MINUTE: 0,
      RATE_LIMIT_PER_HOUR: 0,
    };
    const text = withRunningAddresses(builtText, running);
    expect(text).toContain('no limit per minute per IP; no limit per minute per key; no limit per hour per key or IP');
    expect(text).not.toMatch(/\b0 requests/);
  });
});
