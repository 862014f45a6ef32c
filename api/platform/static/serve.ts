// Serves a StaticSite: GET and HEAD of a known path answer from memory with the variant the client
// accepts (or 304 when its If-None-Match names that variant); anything else goes to the next handler.
import type { RequestHandler } from 'express';
import { variantFor, type StaticSite } from './static-site.ts';

/** Weak comparison (RFC 9110 13.1.2, as If-None-Match requires): `W/"x"` matches `"x"`; `*` matches. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

export function serveStaticSite(site: StaticSite): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = site.get(req.path);
    if (file === undefined) return next();
    const variant = variantFor(file, req.headers['accept-encoding']);
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, variant.etag)) {
      res.writeHead(304, variant.notModifiedHeaders).end();
      return;
    }
    res.writeHead(200, variant.headers);
    if (req.method === 'HEAD') res.end();
    else res.end(variant.body);
  };
}
