// Security headers (helmet) for the site's pages and files. Mounted in front of the static site and
// the on-demand pages only: API responses keep exactly the CORS headers of the spec, and nothing
// here may stop another origin from fetching public data (so no CORP same-origin, COEP or COOP).
import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * The built site runs no JavaScript and loads every file from its own origin (checked by
 * tests/security/security-headers.test.ts against dist/client), so scripts are 'self' only and
 * inline scripts are refused. JSON-LD blocks are data, not scripts, and are not affected. Inline
 * styles stay allowed: Astro inlines small stylesheets as <style> when a build makes them small.
 */
export function siteSecurityHeaders(baseUrl: string): RequestHandler {
  const https = baseUrl.startsWith('https:');
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'connect-src': ["'self'"],
        'font-src': ["'self'", 'data:'],
        'form-action': ["'self'"],
        'frame-ancestors': ["'self'"],
        'img-src': ["'self'", 'data:'],
        'object-src': ["'none'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        // Only behind TLS: on a plain-http self-host it would send the browser to a port with no TLS.
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // Pages, feeds and llms.txt are public and meant to be read from anywhere.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    xFrameOptions: { action: 'sameorigin' },
  });
}
