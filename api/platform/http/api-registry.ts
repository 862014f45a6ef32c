// The API's route table. Each capability declares its routes here with zod schemas; the same
// declaration validates requests, mounts the Express handler and writes the OpenAPI document, so
// the documentation cannot drift from the code.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { parseOrThrow } from './validation.ts';
import { cors } from './cors.ts';
import { jsonBody } from './json-body.ts';
import { memoizedQueryParser } from './query-memo.ts';
import { MethodNotAllowedError } from './errors.ts';
import { sendJson } from './json-response.ts';

export type CachePolicy = 'data' | 'none';

export interface RouteResponse {
  description: string;
  /** JSON body schema; omit for non-JSON responses (text/calendar, text/event-stream). */
  schema?: z.ZodType;
  contentType?: string;
}

export interface RouteDefinition<Query extends z.ZodType = z.ZodType, Body extends z.ZodType = z.ZodType> {
  method: 'get' | 'post';
  /** Path below the API root, Express syntax (`/rates`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  query?: Query;
  body?: Body;
  responses: Record<number, RouteResponse>;
  /** `data` (default for GET): cacheable for up to an hour, with ETag. `none`: no-store. */
  cache?: CachePolicy;
  /** Extra CORS methods for routes that are not GET. */
  corsMethods?: string;
  /**
   * Returns the JSON body to send, or `undefined` after writing the response itself (streams,
   * other content types).
   */
  handler: (input: {
    query: z.output<Query>;
    body: z.output<Body>;
    req: Request;
    res: Response;
  }) => unknown;
}

/** Cacheable for up to an hour (spec 8); shared caches may serve it while revalidating. */
export const DATA_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=60';

export class ApiRegistry {
  readonly routes: RouteDefinition[] = [];
  private readonly middleware: RequestHandler[] = [];

  add<Query extends z.ZodType, Body extends z.ZodType>(route: RouteDefinition<Query, Body>): void {
    this.routes.push(route as unknown as RouteDefinition);
  }

  /** Middleware that runs before every API route (key checks, rate limits). */
  use(handler: RequestHandler): void {
    this.middleware.push(handler);
  }

  /** Builds the router mounted at /api/v1 and at the root of the API host. */
  buildRouter(): express.Router {
    const router = express.Router({ strict: false });
    const byPath = new Map<string, RouteDefinition[]>();
    for (const route of this.routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);

    for (const [routePath, routes] of byPath) {
      const methods = routes.map((route) => route.method.toUpperCase());
      const corsMethods = [...new Set(['GET', ...routes.map((route) => route.corsMethods ?? route.method.toUpperCase()), 'OPTIONS'])];
      router.options(routePath, cors(corsMethods.join(', ')));
      for (const route of routes) {
        const parseBody = route.body ? [jsonBody] : [];
        router[route.method](routePath, cors(corsMethods.join(', ')), ...parseBody, ...this.middleware, toHandler(route));
      }
      router.all(routePath, (req, _res, next) => {
        next(new MethodNotAllowedError(req.method, [...methods, 'OPTIONS']));
      });
    }
    return router;
  }
}

function toHandler(route: RouteDefinition): RequestHandler {
  const cachePolicy = route.cache ?? (route.method === 'get' ? 'data' : 'none');
  const parseQuery = route.query ? memoizedQueryParser(route.query) : () => undefined;
  return async (req, res) => {
    const query = parseQuery(req);
    const body = route.body ? parseOrThrow(route.body, req.body, 'body') : undefined;
    const result = await route.handler({ query, body, req, res });
    if (result === undefined || res.headersSent) return;
    res.setHeader('Cache-Control', cachePolicy === 'data' ? DATA_CACHE_CONTROL : 'no-store');
    // With the ETag, and 304 when If-None-Match matches (Express's freshness check).
    sendJson(req, res, typeof result === 'string' ? result : JSON.stringify(result));
  };
}
