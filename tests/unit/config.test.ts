import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/config.ts';

describe('configuration', () => {
  it('works on a bare machine with documented defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.API_HOST).toBe('api.localhost');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir.endsWith('.data')).toBe(true);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.REQUIRE_API_KEY).toBe(false);
    expect(config.RATE_LIMIT_ANON_PER_MINUTE).toBe(20);
    expect(config.RATE_LIMIT_KEY_PER_MINUTE).toBe(100);
    expect(config.RATE_LIMIT_PER_HOUR).toBe(1000);
  });

  it('parses booleans and numbers from strings', () => {
    const config = loadConfig({ PORT: '8080', REQUIRE_API_KEY: 'true', BASE_URL: 'https://example.org/', DATABASE_URL: '' });
    expect(config.PORT).toBe(8080);
    expect(config.REQUIRE_API_KEY).toBe(true);
    expect(config.baseUrl).toBe('https://example.org');
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('rejects invalid values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'memcached' })).toThrow(/RATE_LIMIT_STORE/);
  });
});
