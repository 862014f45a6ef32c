// CORS for the API exactly as spec 4.8: any origin, and a 204 answer to every preflight.
import type { RequestHandler } from 'express';

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization',
  'Access-Control-Max-Age': '86400',
} as const;

/**
 * Sets the spec's CORS headers. `methods` widens Allow-Methods for the few POST endpoints (/ask),
 * which a browser could not call cross-origin otherwise.
 */
export function cors(methods: string = CORS_HEADERS['Access-Control-Allow-Methods']): RequestHandler {
  return (req, res, next) => {
    res.set(CORS_HEADERS);
    res.set('Access-Control-Allow-Methods', methods);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
