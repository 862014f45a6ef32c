// Absolute URLs in pages. A prerendered page is built with the placeholder origin, which the server
// replaces with the running BASE_URL when it loads the built files; an on-demand page is rendered by
// the running server and uses its BASE_URL directly (Astro.locals.deps).
import { BUILD_ADDRESS_ENV, BUILD_ORIGIN } from '../../api/platform/static/build-origin.ts';
import { loadConfig, type Config } from '../../api/config.ts';

/** `${origin}${path}` for the page being rendered: the running origin on demand, else the placeholder. */
export function absoluteUrl(locals: App.Locals, path: string): string {
  return `${locals.deps?.config.baseUrl ?? BUILD_ORIGIN}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The configuration prerendered files are written with: placeholder addresses, no log output. */
export function buildConfig(): Config {
  return loadConfig({ ...process.env, LOG_LEVEL: 'silent', ...BUILD_ADDRESS_ENV });
}
