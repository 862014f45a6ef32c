// The site is built once and may be served at any address: the build writes absolute URLs (canonical
// links, feed items, llms.txt, robots.txt, JSON-LD) with a placeholder origin that cannot resolve
// (.invalid, RFC 2606), and the server puts the running BASE_URL in its place when it loads the
// built files (static-site.ts). The rate limits are written the same way, as phrases of placeholder
// figures that the running ones replace. So changing BASE_URL, PORT or a limit needs a restart,
// never a rebuild.
import type { Config } from '../../config.ts';
import { apiUrls } from '../http/addresses.ts';
import { rateLimitPhrases, type LimitConfig } from '../rate-limit-text.ts';
import { keysPhrase, type KeysConfig } from '../keys-text.ts';

/** Origin the site is built with; never served. */
export const BUILD_ORIGIN = 'https://build-origin.invalid';
/** API_HOST the site is built with, so the API host's URL is a placeholder too. */
export const BUILD_API_HOST = 'api-host.build-origin.invalid';
/** The API host's URL as the build writes it (apiUrls of the build's configuration). */
export const BUILD_API_HOST_ORIGIN = `https://${BUILD_API_HOST}`;

/** Limit figures the build writes; no installation sets these (they are the placeholders). */
const BUILD_LIMITS: LimitConfig = {
  RATE_LIMIT_ANON_PER_MINUTE: 987_654_301,
  RATE_LIMIT_KEY_PER_MINUTE: 987_654_302,
  RATE_LIMIT_PER_HOUR: 987_654_303,
};

/** The keys sentence the build writes: no sign-in, a contact no installation has (the placeholder). */
const BUILD_KEYS: KeysConfig = {
  baseUrl: BUILD_ORIGIN,
  OIDC_ISSUER: undefined,
  OIDC_CLIENT_ID: undefined,
  SUPPORT_CONTACT: 'keys@build-origin.invalid',
};

/** Environment overrides for code that renders URLs and limits during the build (llms.txt, /ai-info-page). */
export const BUILD_ADDRESS_ENV = {
  BASE_URL: BUILD_ORIGIN,
  API_HOST: BUILD_API_HOST,
  // How to get a key is the running install's to say: the build writes a placeholder sentence.
  OIDC_ISSUER: '',
  OIDC_CLIENT_ID: '',
  SUPPORT_CONTACT: BUILD_KEYS.SUPPORT_CONTACT as string,
  RATE_LIMIT_ANON_PER_MINUTE: String(BUILD_LIMITS.RATE_LIMIT_ANON_PER_MINUTE),
  RATE_LIMIT_KEY_PER_MINUTE: String(BUILD_LIMITS.RATE_LIMIT_KEY_PER_MINUTE),
  RATE_LIMIT_PER_HOUR: String(BUILD_LIMITS.RATE_LIMIT_PER_HOUR),
} as const;

/** The build's limit phrases in `text` replaced by the running configuration's. */
export function withRunningLimits(text: string, config: LimitConfig): string {
  if (!text.includes('987,654,30')) return text;
  const built = rateLimitPhrases(BUILD_LIMITS);
  const running = rateLimitPhrases(config);
  return text
    .replaceAll(built.anonymous, running.anonymous)
    .replaceAll(built.withKey, running.withKey)
    .replaceAll(built.hourly, running.hourly);
}

/**
 * Replaces the build's placeholder addresses in a built text file with the running ones. The API
 * host's placeholder goes first: it is not a substring of the origin's, nor the origin of it, but
 * the order keeps that from mattering.
 */
export function withRunningAddresses(
  text: string,
  config: Pick<Config, 'baseUrl' | 'API_HOST'> & Partial<LimitConfig> & Partial<Omit<KeysConfig, 'baseUrl'>>,
): string {
  const { RATE_LIMIT_ANON_PER_MINUTE, RATE_LIMIT_KEY_PER_MINUTE, RATE_LIMIT_PER_HOUR } = config;
  // The keys sentence first: the build's names a placeholder contact under the placeholder domain.
  const built = keysPhrase(BUILD_KEYS);
  const keyed = text.includes(built)
    ? text.replaceAll(
        built,
        keysPhrase({
          baseUrl: config.baseUrl,
          OIDC_ISSUER: config.OIDC_ISSUER,
          OIDC_CLIENT_ID: config.OIDC_CLIENT_ID,
          SUPPORT_CONTACT: config.SUPPORT_CONTACT,
        }),
      )
    : text;
  const limited =
    RATE_LIMIT_ANON_PER_MINUTE === undefined || RATE_LIMIT_KEY_PER_MINUTE === undefined || RATE_LIMIT_PER_HOUR === undefined
      ? keyed
      : withRunningLimits(keyed, { RATE_LIMIT_ANON_PER_MINUTE, RATE_LIMIT_KEY_PER_MINUTE, RATE_LIMIT_PER_HOUR });
  if (!limited.includes('build-origin.invalid')) return limited;
  return limited.replaceAll(BUILD_API_HOST_ORIGIN, apiUrls({ config }).apiHost).replaceAll(BUILD_ORIGIN, config.baseUrl);
}
