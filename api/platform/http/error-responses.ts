// The one error body, declared once as zod, and the documented error responses every route spreads
// into its own: a generated client can trust that each status it may get is described with this
// body (spec 2.7: `{error, status}`).
import { z } from 'zod';

export const ErrorBodySchema = z.object({
  error: z.string().describe('What went wrong and how to fix the request.'),
  status: z.int().describe('The HTTP status, repeated.'),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 429 | 431 | 500 | 503;

/** What each status means on this API, unless a route says it more precisely. */
export const ERROR_DESCRIPTIONS: Readonly<Record<ErrorStatus, string>> = {
  400: 'Invalid parameters; the message names the parameter and the valid values.',
  401: 'The API key given is invalid or revoked, or a key is required.',
  403: 'The caller is known but not allowed to do this.',
  404: 'Nothing matches the request; the message says what would.',
  405: 'The path exists but not for this method; see Allow.',
  409: 'The request conflicts with the current state.',
  410: 'What was asked is no longer kept; the message names the oldest that is.',
  413: 'The request body is too large.',
  415: 'The request body is not JSON; send it with Content-Type: application/json.',
  429: 'Rate limited; see Retry-After.',
  431: 'The request headers or URL are too large.',
  500: 'Unexpected fault (no internals are disclosed).',
  503: 'A dataset is not loaded yet or the database is unavailable; see Retry-After.',
};

/** Statuses any API route can answer: bad input, bad key, wrong method, limits, oversized heads, faults, outages. */
export const COMMON_ERROR_STATUSES: readonly ErrorStatus[] = [400, 401, 405, 429, 431, 500, 503];

/** Statuses a route that takes a JSON body can answer too (api/platform/http/json-body.ts). */
export const BODY_ERROR_STATUSES: readonly ErrorStatus[] = [413, 415];

export interface ErrorResponse {
  description: string;
  schema: typeof ErrorBodySchema;
}

/**
 * Documented error responses with the error body, to spread into a route's `responses`:
 * `...errorResponses({ 404: 'No glossary term matches; the message suggests close ones.' })`, or
 * `...errorResponses([404])` for the standard wording.
 */
export function errorResponses(statuses: readonly ErrorStatus[] | Partial<Record<ErrorStatus, string>>): Record<number, ErrorResponse> {
  const entries: [ErrorStatus, string | undefined][] = Array.isArray(statuses)
    ? statuses.map((status) => [status, undefined])
    : Object.entries(statuses).map(([status, description]) => [Number(status) as ErrorStatus, description]);
  const result: Record<number, ErrorResponse> = {};
  for (const [status, description] of entries) {
    result[status] = { description: description ?? ERROR_DESCRIPTIONS[status], schema: ErrorBodySchema };
  }
  return result;
}
