// The API's route table. Each capability declares its routes here with zod schemas; the same
// declaration validates requests, mounts the Express handler and writes the OpenAPI document, so
// the documentation cannot drift from the code. `route()` types the handler's result by the 200
// schema and refuses unknown query parameters unless the route says otherwise.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { parseOrThrow } from '../validation.ts';
import { cors } from './cors.ts';
import { jsonBody } from './json-body.ts';
import { memoizedParser, memoizedQueryParser } from './query-memo.ts';
import { MethodNotAllowedError } from '../errors.ts';
import { sendJson } from './json-response.ts';
import { strictQueryParser } from './strict-query.ts';
import type { AnswerLane } from './answer-lane.ts';
import type { PreSerialized } from '../pre-serialized.ts';

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

/** Unknown query parameters: `refuse` answers 400 naming the known ones; `ignore` drops them. */
export type UnknownParameters = 'refuse' | 'ignore';

/** What every route declares beside its schemas, responses and handler: where it is, how OpenAPI names it, how it is cached. */
interface RouteMetadata {
  method: 'get' | 'post' | 'delete';
  /** Path below the API root, Express syntax (`/rates`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /**
   * A request a reader can copy (values that exist): published as the parameters' and the request
   * body's `example` in OpenAPI, and run by the API docs page to show its real answer.
   */
  example?: RouteExample;
  /** `data` (default for GET): cacheable for up to an hour, with ETag. `none`: no-store. */
  cache?: CachePolicy;
  /** Extra CORS methods for routes that are not GET. */
  corsMethods?: string;
  /**
   * Default `refuse` (`route()` sets it): an unknown query parameter is a 400 naming the known ones
   * (`api_key`, `secret` aside). Applies when `query` is a `z.object`; a route without one ignores a query string.
   */
  unknownParameters?: UnknownParameters;
}

/** A route as the registry keeps it, its schemas erased (what the router and OpenAPI read). */
export interface RouteDefinition<Query extends z.ZodType = z.ZodType, Body extends z.ZodType = z.ZodType> extends RouteMetadata {
  query?: Query;
  body?: Body;
  /** Path parameters (`:name` in `path`), documented as `in: path`. */
  params?: z.ZodObject;
  responses: Record<number, RouteResponse>;
  /**
   * Returns the JSON body to send, or `undefined` (or RESPONSE_WRITTEN) after writing the response
   * itself (streams, other content types).
   */
  handler: (input: {
    query: z.output<Query>;
    body: z.output<Body>;
    params: Record<string, unknown>;
    req: Request;
    res: Response;
  }) => unknown;
}

/** Returned by a handler that wrote the response itself (a stream, another content type). */
export const RESPONSE_WRITTEN: unique symbol = Symbol('response written');
export type ResponseWritten = typeof RESPONSE_WRITTEN;

/** What a contract route's handler may return: the 200 body (as an object or pre-serialised), or RESPONSE_WRITTEN. */
export type RouteResult<Ok extends z.ZodType> = z.input<Ok> | PreSerialized<z.input<Ok>> | ResponseWritten;

/** A route as a capability declares it from its contract, its handler's result typed by the 200 schema. */
export interface ContractRouteDefinition<
  Query extends z.ZodObject,
  Body extends z.ZodType,
  Ok extends z.ZodType,
  Params extends z.ZodObject = z.ZodObject,
> extends RouteMetadata {
  /** The contract's query object; its fields are the documented parameters. */
  query?: Query;
  body?: Body;
  /** Path parameters: each `:name` in `path` is a field, parsed like the query. */
  params?: Params;
  /**
   * The 200 response (its `schema` types the handler's result) and every other documented status:
   * spread `errorResponses(...)` for the errors this route adds to the common ones (400, 401, 405,
   * 429, 500, 503 are documented on every route).
   */
  responses: { 200: RouteResponse & { schema: Ok } } & Record<number, RouteResponse>;
  handler(input: {
    query: z.output<Query>;
    body: z.output<Body>;
    params: z.output<Params>;
    req: Request;
    res: Response;
  }): RouteResult<Ok> | Promise<RouteResult<Ok>>;
}

/**
 * A route as data: everything but its handler. Each capability declares its routes so (its
 * `xRoutes`), the OpenAPI document is rendered from them alone (api/api-description.ts), and its
 * registrar answers each with `registry.route({ ...contract, handler })`.
 */
export type RouteContract<
  Query extends z.ZodObject = z.ZodObject,
  Body extends z.ZodType = z.ZodType,
  Ok extends z.ZodType = z.ZodType,
  Params extends z.ZodObject = z.ZodObject,
> = Omit<ContractRouteDefinition<Query, Body, Ok, Params>, 'handler'>;

/** What the OpenAPI renderer reads of a route: a contract, or a registered route without its handler. */
export type RouteDescription = Omit<RouteDefinition, 'handler'>;

/** Declares a route contract, keeping its schemas' types for the handler the registrar gives it. */
export function routeContract<
  Query extends z.ZodObject,
  Body extends z.ZodType = z.ZodUndefined,
  Ok extends z.ZodType = z.ZodType,
  Params extends z.ZodObject = z.ZodObject,
>(contract: RouteContract<Query, Body, Ok, Params>): RouteContract<Query, Body, Ok, Params> {
  return contract;
}

/** A contract as the OpenAPI renderer reads it, with the registry's default for unknown parameters. */
export function describeRoute(contract: RouteContract): RouteDescription {
  return { ...contract, unknownParameters: contract.unknownParameters ?? 'refuse' };
}

/** Cacheable for up to an hour (docs/api-conventions.md); shared caches may serve it while revalidating. */
export const DATA_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=60';

export class ApiRegistry {
  readonly routes: RouteDefinition[] = [];
  private readonly middleware: RequestHandler[] = [];

  private readonly lane: AnswerLane | undefined;

  /** `lane`: where public answers are kept for the front door (answer-lane.ts); none in a bare registry. */
  constructor(lane?: AnswerLane) {
    this.lane = lane;
  }

  /**
   * Declares a route from a capability's contract: the handler's result must fit `responses[200].schema`
   * (checked by the compiler), and unknown query parameters are refused unless it says otherwise.
   */
  route<
    Query extends z.ZodObject,
    Body extends z.ZodType = z.ZodUndefined,
    Ok extends z.ZodType = z.ZodType,
    Params extends z.ZodObject = z.ZodObject,
  >(route: ContractRouteDefinition<Query, Body, Ok, Params>): void {
    const { handler, ...contract } = route;
    this.routes.push({
      ...describeRoute(contract as RouteContract),
      handler: (input) => handler(input as Parameters<typeof handler>[0]),
    });
  }

  /** Middleware that runs before every API route (key checks, rate limits). */
  use(handler: RequestHandler): void {
    this.middleware.push(handler);
  }

  /**
   * Builds the router mounted at /api/v1 and at the root of the API host. Without `middleware` (key
   * checks and rate limits), for the server's own example requests on the API docs page.
   */
  buildRouter({ middleware = true }: { middleware?: boolean } = {}): express.Router {
    const before = middleware ? this.middleware : [];
    const router = express.Router({ strict: false });
    const byPath = new Map<string, RouteDefinition[]>();
    for (const route of this.routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);

    for (const [routePath, routes] of byPath) {
      const methods = routes.map((route) => route.method.toUpperCase());
      const corsMethods = [...new Set(['GET', ...routes.map((route) => route.corsMethods ?? route.method.toUpperCase()), 'OPTIONS'])];
      router.options(routePath, cors(corsMethods.join(', ')));
      for (const route of routes) {
        const parseBody = route.body ? [jsonBody] : [];
        router[route.method](
          routePath,
          cors(corsMethods.join(', ')),
          ...parseBody,
          ...before,
          toHandler(route, middleware ? this.lane : undefined),
        );
      }
      router.all(routePath, (req, _res, next) => {
        next(new MethodNotAllowedError(req.method, [...methods, 'OPTIONS']));
      });
    }
    return router;
  }
}

function queryParser(route: RouteDefinition): (req: Request) => unknown {
  if (!route.query) return () => undefined;
  if (route.unknownParameters === 'refuse' && route.query instanceof z.ZodObject) return memoizedParser(strictQueryParser(route.query));
  return memoizedQueryParser(route.query);
}

/** Express's path parameters, a wildcard's segments (`*name` gives an array) joined back with `/`. */
function pathParameters(req: Request): Record<string, string> {
  const raw = req.params as Record<string, string | string[] | undefined>;
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) params[name] = Array.isArray(value) ? value.join('/') : value;
  return params;
}

function toHandler(route: RouteDefinition, lane: AnswerLane | undefined): RequestHandler {
  const cachePolicy = route.cache ?? (route.method === 'get' ? 'data' : 'none');
  // A GET data answer is public (DATA_CACHE_CONTROL): the same for every caller without a key.
  const keepFor = route.method === 'get' && cachePolicy === 'data' ? lane : undefined;
  const parseQuery = queryParser(route);
  return async (req, res) => {
    const query = parseQuery(req);
    const body = route.body ? parseOrThrow(route.body, req.body, 'body') : undefined;
    const params = route.params ? parseOrThrow(route.params, pathParameters(req), 'query') : {};
    const result = await route.handler({ query, body, params, req, res });
    if (result === undefined || result === RESPONSE_WRITTEN || res.headersSent) return;
    res.setHeader('Cache-Control', cachePolicy === 'data' ? DATA_CACHE_CONTROL : 'no-store');
    // With the ETag, and 304 when If-None-Match matches (Express's freshness check).
    const json = typeof result === 'string' ? result : JSON.stringify(result);
    const sentBody = sendJson(req, res, json);
    if (sentBody && keepFor !== undefined && req.identity?.kind === 'anonymous') keepFor.keep(req, req.originalUrl, res, json);
  };
}
