// Built files carry placeholder addresses and limit figures; the server writes its own in their place.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { BUILD_ADDRESS_ENV, withRunningAddresses } from '../../api/platform/static/build-origin.ts';
import { rateLimitPhrases } from '../../api/platform/rate-limit-text.ts';
import { serviceCatalog } from '../../api/site-info/catalog.ts';

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

describe('what the built files promise about keys and rates', () => {
  const built = loadConfig({ ...BUILD_ADDRESS_ENV, LOG_LEVEL: 'silent' });
  const catalog = serviceCatalog(built);

  it('says sign in at /account only where sign-in is configured, else the contact, else the operator', () => {
    const running = { baseUrl: 'https://mds.example', API_HOST: 'api.mds.example' };
    const text = `Keys: ${catalog.authentication.keys}`;
    expect(withRunningAddresses(text, running)).toBe(
      'Keys: This install has no sign-in and names no contact for keys: its operator issues them. Every tool and endpoint but query_hmda works without one, at the lower limit.',
    );
    expect(withRunningAddresses(text, { ...running, SUPPORT_CONTACT: 'keys@mds.example' })).toBe(
      'Keys: Free: this install has no sign-in; ask keys@mds.example for a key (up to 3 per account).',
    );
    expect(withRunningAddresses(text, { ...running, OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_ID: 'mds' })).toBe(
      'Keys: Free: sign in at https://mds.example/account (up to 3 keys per account).',
    );
  });

  it('promises lender rates by state only where a rate sheet is imported', () => {
    expect(catalog.description).not.toMatch(/lender rates by state/);
    expect(catalog.description).toMatch(/a lender rate sheet where one is imported, otherwise the national benchmark/);
  });
});
