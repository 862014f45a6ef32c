// A route as data, declared once: method, path, parameters, body and every documented response with
// its schema. The route table (api-registry.ts) mounts and validates a route from it and the OpenAPI
// renderer (openapi.ts) describes it from it; neither has a shape of its own. Imports only zod.
import type { z } from 'zod';

export type CachePolicy = 'data' | 'none';

export interface RouteResponse {
  description: string;
  /** JSON body schema; omit for non-JSON responses (text/calendar, text/event-stream). */
  schema?: z.ZodType;
  contentType?: string;
  /** Other representations of the same response (e.g. `text/calendar` beside the JSON). */
  otherContentTypes?: readonly string[];
}

export interface RouteExample {
  query?: Record<string, string>;
  params?: Record<string, string>;
  body?: unknown;
}

/** Unknown query parameters: `refuse` (the default) answers 400 naming the known ones; `ignore` drops them. */
export type UnknownParameters = 'refuse' | 'ignore';

/**
 * One route. `Ok` is the 200 body's schema: it types what the route's handler may return. Spread
 * `errorResponses(...)` into `responses` for the errors the route adds to the common ones (400,
 * 401, 405, 429, 500, 503 are documented on every route).
 */
export interface RouteContract<
  Query extends z.ZodObject = z.ZodObject,
  Body extends z.ZodType = z.ZodType,
  Ok extends z.ZodType = z.ZodType,
  Params extends z.ZodObject = z.ZodObject,
> {
  method: 'get' | 'post' | 'delete';
  /** Path below the API root, Express syntax (`/rates`, `/webhooks/:id`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  /**
   * A request a reader can copy (values that exist): published as the parameters' and the request
   * body's `example` in OpenAPI, and run by the API docs page to show its real answer.
   */
  example?: RouteExample;
  /** `data` (default for GET): cacheable for up to an hour, with ETag. `none`: no-store. */
  cache?: CachePolicy;
  /** Extra CORS methods for routes that are not GET. */
  corsMethods?: string;
  /** Applies when `query` is given; a route without one ignores a query string (`refusesUnknownParameters`). */
  unknownParameters?: UnknownParameters;
  /** Its fields are the documented query parameters. */
  query?: Query;
  body?: Body;
  /** Path parameters: each `:name` in `path` is a field, parsed like the query. */
  params?: Params;
  responses: { 200: RouteResponse & { schema: Ok } } & Record<number, RouteResponse>;
}

/** Declares a route, keeping its schemas' types for the handler that answers it. */
export function routeContract<
  Query extends z.ZodObject,
  Body extends z.ZodType = z.ZodUndefined,
  Ok extends z.ZodType = z.ZodType,
  Params extends z.ZodObject = z.ZodObject,
>(contract: RouteContract<Query, Body, Ok, Params>): RouteContract<Query, Body, Ok, Params> {
  return contract;
}

/** Whether the route answers an unknown query parameter with a 400: the one reading of the default, for the router and the document. */
export function refusesUnknownParameters(route: RouteContract): boolean {
  return route.query !== undefined && (route.unknownParameters ?? 'refuse') === 'refuse';
}
