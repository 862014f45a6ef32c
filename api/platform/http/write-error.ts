// How an API error goes on the wire, for the app's error handler and for the front door alike: the
// one error body (`{error, status}`), the error's own headers (Retry-After, Allow), no-store, and
// the API's CORS headers (docs/api-conventions.md) so a browser can read it.
import type { ServerResponse } from 'node:http';
import { setCorsHeaders } from './cors.ts';
import type { ErrorBody } from '../errors.ts';

export function writeApiError(res: ServerResponse, body: ErrorBody, headers: Record<string, string>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('Cache-Control', 'no-store');
  setCorsHeaders(res);
  const json = JSON.stringify(body);
  res.statusCode = body.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
