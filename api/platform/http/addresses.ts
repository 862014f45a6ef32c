// Where the API is reached: the hostname a request names, the requests for one host, and the public
// URLs of the documentation and of the API host. Kept apart from app.ts so modules the app mounts can use them without
// importing the app back (a runtime import cycle).
import type { Request, RequestHandler } from 'express';
import type { Config } from '../../config.ts';

/** The hostname a request names, lower-cased, without port (handles `[::1]:3000`). */
export function requestHostname(req: Request): string {
  const host = (req.headers.host ?? '').toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0] ?? '';
}

/** Middleware that hands the requests naming `hostname` to `handler`, and lets the others through. */
export function forHost(hostname: string, handler: RequestHandler): RequestHandler {
  const wanted = hostname.toLowerCase();
  return (req, res, next) => (requestHostname(req) === wanted ? handler(req, res, next) : next());
}

export function apiUrls(deps: { config: Pick<Config, 'baseUrl' | 'API_HOST'> }): { documentation: string; apiHost: string } {
  const base = new URL(deps.config.baseUrl);
  const port = base.port ? `:${base.port}` : '';
  return {
    documentation: `${deps.config.baseUrl}/docs/api`,
    apiHost: `${base.protocol}//${deps.config.API_HOST}${port}`,
  };
}
