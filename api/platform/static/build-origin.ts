// The site is built once and may be served at any address: the build writes absolute URLs (canonical
// links, feed items, llms.txt, robots.txt, JSON-LD) with a placeholder origin that cannot resolve
// (.invalid, RFC 2606), and the server puts the running BASE_URL in its place when it loads the
// built files (static-site.ts). So changing BASE_URL or PORT needs a restart, never a rebuild.
import type { Config } from '../../config.ts';
import { apiUrls } from '../http/addresses.ts';

/** Origin the site is built with; never served. */
export const BUILD_ORIGIN = 'https://build-origin.invalid';
/** API_HOST the site is built with, so the API host's URL is a placeholder too. */
export const BUILD_API_HOST = 'api-host.build-origin.invalid';
/** The API host's URL as the build writes it (apiUrls of the build's configuration). */
export const BUILD_API_HOST_ORIGIN = `https://${BUILD_API_HOST}`;

/** Environment overrides for code that renders URLs during the build (llms.txt, /ai-info-page). */
export const BUILD_ADDRESS_ENV = { BASE_URL: BUILD_ORIGIN, API_HOST: BUILD_API_HOST } as const;

/**
 * Replaces the build's placeholder addresses in a built text file with the running ones. The API
 * host's placeholder goes first: it is not a substring of the origin's, nor the origin of it, but
 * the order keeps that from mattering.
 */
export function withRunningAddresses(text: string, config: Pick<Config, 'baseUrl' | 'API_HOST'>): string {
  if (!text.includes('build-origin.invalid')) return text;
  return text.replaceAll(BUILD_API_HOST_ORIGIN, apiUrls({ config }).apiHost).replaceAll(BUILD_ORIGIN, config.baseUrl);
}
