// CORS for the API (docs/api-conventions.md): any origin, methods GET and OPTIONS (POST where a route
// takes one), headers Content-Type and Authorization, max age 86400, and a 204 answer to every
// preflight. Beyond those four headers, Expose-Headers lets a browser read the rate-limit and request-id headers.
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization',
  'Access-Control-Max-Age': '86400',
  'Access-Control-Expose-Headers': 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id',
} as const;

/** Sets the API's CORS headers, with `methods` as Allow-Methods. */
export function setCorsHeaders(res: ServerResponse, methods: string = CORS_HEADERS['Access-Control-Allow-Methods']): void {
  // setHeader directly: every API response carries these, and res.set() re-checks each value.
  res.setHeader('Access-Control-Allow-Origin', CORS_HEADERS['Access-Control-Allow-Origin']);
  res.setHeader('Access-Control-Allow-Methods', methods);
  res.setHeader('Access-Control-Allow-Headers', CORS_HEADERS['Access-Control-Allow-Headers']);
  res.setHeader('Access-Control-Max-Age', CORS_HEADERS['Access-Control-Max-Age']);
  res.setHeader('Access-Control-Expose-Headers', CORS_HEADERS['Access-Control-Expose-Headers']);
}

/**
 * Sets the API's CORS headers. `methods` widens Allow-Methods for the few POST endpoints (/ask),
 * which a browser could not call cross-origin otherwise.
 */
export function cors(methods: string = CORS_HEADERS['Access-Control-Allow-Methods']): RequestHandler {
  return (req, res, next) => {
    setCorsHeaders(res, methods);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
