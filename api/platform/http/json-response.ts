// Sends a route's JSON body with its strong ETag, answering 304 when If-None-Match matches. Most
// bodies are strings a service serialised once and caches (rates, loan limits), so the bytes and
// the ETag are cached by that string: a repeat request costs a map lookup instead of a SHA-1 of the
// body plus Express's content-type parsing (measured: see docs/benchmarks-history.md, "Finding the cost", item 2).
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

interface Encoded {
  bytes: Buffer;
  etag: string;
}

/** Bodies up to this size are cached; bigger ones are encoded per request (they are rare). */
const MAX_CACHED_BODY = 64 * 1024;
/** Bound on the cache's total bytes (each entry holds the string and its bytes). */
const MAX_CACHED_BYTES = 16 * 1024 * 1024;

const cache = new Map<string, Encoded>();
let cachedBytes = 0;

function encode(json: string): Encoded {
  const bytes = Buffer.from(json, 'utf8');
  // The same format as Express's strong ETag (the `etag` package): length in hex, SHA-1 prefix.
  const etag = `"${bytes.length.toString(16)}-${createHash('sha1').update(bytes).digest('base64').slice(0, 27)}"`;
  return { bytes, etag };
}

function encoded(json: string): Encoded {
  const hit = cache.get(json);
  if (hit) return hit;
  const fresh = encode(json);
  if (fresh.bytes.length <= MAX_CACHED_BODY) {
    const cost = fresh.bytes.length * 3; // the bytes, plus the key string (up to 2 bytes a character)
    while (cachedBytes + cost > MAX_CACHED_BYTES && cache.size > 0) {
      const [oldest, entry] = cache.entries().next().value as [string, Encoded];
      cache.delete(oldest);
      cachedBytes -= entry.bytes.length * 3;
    }
    cache.set(json, fresh);
    cachedBytes += cost;
  }
  return fresh;
}

/**
 * Writes `json` as the response (200, or 304 when the client's copy is current); true when it sent
 * the body (a 200 to a GET).
 */
export function sendJson(req: Request, res: Response, json: string): boolean {
  const { bytes, etag } = encoded(json);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', etag);
  // Express's freshness check (If-None-Match / If-Modified-Since against the headers just set).
  if (req.fresh) {
    res.removeHeader('Content-Type');
    res.statusCode = 304;
    res.end();
    return false;
  }
  res.setHeader('Content-Length', bytes.length);
  if (req.method === 'HEAD') {
    res.end();
    return false;
  }
  res.end(bytes);
  return true;
}
