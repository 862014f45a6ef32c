// The API's route table: each route is its contract (route-contract.ts, data) and the handler that
// answers it. The same contract validates requests, mounts the Express handler and writes the
// OpenAPI document, so the documentation cannot drift from the code. A handler's result is typed by
// the 200 schema; unknown query parameters are refused unless the route says otherwise.
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { parseOrThrow } from '../validation.ts';
import { cors } from './cors.ts';
import { jsonBody } from './json-body.ts';
import { memoizedParser, memoizedQueryParser } from './query-memo.ts';
import { MethodNotAllowedError } from '../errors.ts';
import { sendJson } from './json-response.ts';
import { strictQueryParser } from './strict-query.ts';
import type { AnswerLane } from './answer-lane.ts';
import type { PreSerialized } from '../pre-serialized.ts';
import { refusesUnknownParameters, type RouteContract } from './route-contract.ts';

/** Returned by a handler that wrote the response itself (a stream, another content type). */
export const RESPONSE_WRITTEN: unique symbol = Symbol('response written');
export type ResponseWritten = typeof RESPONSE_WRITTEN;

/** What a handler may return: the 200 body (as an object or pre-serialised), or RESPONSE_WRITTEN. */
export type RouteResult<Ok extends z.ZodType> = z.input<Ok> | PreSerialized<z.input<Ok>> | ResponseWritten;

/** What a handler is given: the contract's query, body and path parameters, parsed. */
export interface RouteInput<Query extends z.ZodType, Body extends z.ZodType, Params extends z.ZodType> {
  query: z.output<Query>;
  body: z.output<Body>;
  params: z.output<Params>;
  req: Request;
  res: Response;
}

/** The function that answers a route, typed by its contract: its result must fit the 200 schema. */
export type RouteHandler<Route> =
  Route extends RouteContract<infer Query, infer Body, infer Ok, infer Params>
    ? (input: RouteInput<Query, Body, Params>) => RouteResult<Ok> | Promise<RouteResult<Ok>>
    : never;

/** A handler for each of a set of routes, by the same name. */
export type RouteHandlers<Routes extends Record<string, RouteContract>> = { [Name in keyof Routes]: RouteHandler<Routes[Name]> };

/**
 * A capability's routes: each declared once as data (`routes`, what the OpenAPI document is rendered
 * from without a running service) and, given the app's dependencies, the handler of each by name (the
 * compiler asks for one per route). `ApiRegistry.mount` registers them in `routes`' order.
 */
export interface ApiRoutes<Deps, Routes extends Record<string, RouteContract> = Record<string, RouteContract>> {
  readonly routes: Routes;
  /** A handler per route, by name: typed route by route where `apiRoutes` declares them. */
  handlers(deps: Deps): object;
}

export function apiRoutes<Deps, Routes extends Record<string, RouteContract>>(
  routes: Routes,
  handlers: (deps: Deps) => RouteHandlers<Routes>,
): ApiRoutes<Deps, Routes> {
  return { routes, handlers };
}

/** A handler once its route's types are erased, as the route table keeps it. */
type ErasedHandler = (input: RouteInput<z.ZodType, z.ZodType, z.ZodType>) => unknown;

/** Cacheable for up to an hour (docs/api-conventions.md); shared caches may serve it while revalidating. */
export const DATA_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=60';

export class ApiRegistry {
  private readonly entries: { route: RouteContract; handler: ErasedHandler }[] = [];
  private readonly middleware: RequestHandler[] = [];

  private readonly lane: AnswerLane | undefined;

  /** `lane`: where public answers are kept for the front door (answer-lane.ts); none in a bare registry. */
  constructor(lane?: AnswerLane) {
    this.lane = lane;
  }

  /** The routes registered so far, in order: what /openapi.json describes. */
  get routes(): RouteContract[] {
    return this.entries.map((entry) => entry.route);
  }

  /** Registers one route with the handler that answers it (its result checked against the 200 schema by the compiler). */
  route<
    Query extends z.ZodObject,
    Body extends z.ZodType = z.ZodUndefined,
    Ok extends z.ZodType = z.ZodType,
    Params extends z.ZodObject = z.ZodObject,
  >(route: RouteContract<Query, Body, Ok, Params>, handler: NoInfer<RouteHandler<RouteContract<Query, Body, Ok, Params>>>): void {
    this.entries.push({ route: route as RouteContract, handler: handler as ErasedHandler });
  }

  /** Registers a capability's routes, each with its handler, in the order it declares them. */
  mount<Deps>(routes: ApiRoutes<Deps>, deps: Deps): void {
    const handlers = routes.handlers(deps) as Record<string, ErasedHandler>;
    for (const [name, route] of Object.entries(routes.routes)) this.entries.push({ route, handler: handlers[name]! });
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
    const byPath = new Map<string, typeof this.entries>();
    for (const entry of this.entries) byPath.set(entry.route.path, [...(byPath.get(entry.route.path) ?? []), entry]);

    for (const [routePath, entries] of byPath) {
      const routes = entries.map((entry) => entry.route);
      const methods = routes.map((route) => route.method.toUpperCase());
      const corsMethods = [...new Set(['GET', ...routes.map((route) => route.corsMethods ?? route.method.toUpperCase()), 'OPTIONS'])];
      router.options(routePath, cors(corsMethods.join(', ')));
      for (const { route, handler } of entries) {
        const parseBody = route.body ? [jsonBody] : [];
        router[route.method](
          routePath,
          cors(corsMethods.join(', ')),
          ...parseBody,
          ...before,
          toHandler(route, handler, middleware ? this.lane : undefined),
        );
      }
      router.all(routePath, (req, _res, next) => {
        next(new MethodNotAllowedError(req.method, [...methods, 'OPTIONS']));
      });
    }
    return router;
  }
}

function queryParser(route: RouteContract): (req: Request) => unknown {
  if (!route.query) return () => undefined;
  if (refusesUnknownParameters(route)) return memoizedParser(strictQueryParser(route.query));
  return memoizedQueryParser(route.query);
}

/** Express's path parameters, a wildcard's segments (`*name` gives an array) joined back with `/`. */
function pathParameters(req: Request): Record<string, string> {
  const raw = req.params as Record<string, string | string[] | undefined>;
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) params[name] = Array.isArray(value) ? value.join('/') : value;
  return params;
}

function toHandler(route: RouteContract, handler: ErasedHandler, lane: AnswerLane | undefined): RequestHandler {
  const cachePolicy = route.cache ?? (route.method === 'get' ? 'data' : 'none');
  // A GET data answer is public (DATA_CACHE_CONTROL): the same for every caller without a key.
  const keepFor = route.method === 'get' && cachePolicy === 'data' ? lane : undefined;
  const parseQuery = queryParser(route);
  return async (req, res) => {
    const query = parseQuery(req);
    const body = route.body ? parseOrThrow(route.body, req.body, 'body') : undefined;
    const params = route.params ? parseOrThrow(route.params, pathParameters(req), 'query') : {};
    const result = await handler({ query, body, params, req, res });
    if (result === undefined || result === RESPONSE_WRITTEN || res.headersSent) return;
    res.setHeader('Cache-Control', cachePolicy === 'data' ? DATA_CACHE_CONTROL : 'no-store');
    // With the ETag, and 304 when If-None-Match matches (Express's freshness check).
    const json = typeof result === 'string' ? result : JSON.stringify(result);
    const sentBody = sendJson(req, res, json);
    if (sentBody && keepFor !== undefined && req.identity?.kind === 'anonymous') keepFor.keep(req, req.originalUrl, res, json);
  };
}
