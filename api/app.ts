// Builds the Express app from its dependencies; server.ts only listens and shuts down. Before the
// app, the front door (front-door.ts) answers repeated public API answers it keeps. In the app:
// request id + log → API host (unprefixed API) → /api/v1 → other dynamic routes → static site →
// on-demand Astro pages → 404 → the one error handler.
import type { RequestListener } from 'node:http';
import path from 'node:path';
import querystring from 'node:querystring';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { AppDeps } from './deps.ts';
import { ApiRegistry } from './platform/http/api-registry.ts';
import { NotFoundError, toErrorResponse } from './platform/errors.ts';
import { requestContext } from './platform/http/request-context.ts';
import { setCorsHeaders } from './platform/http/cors.ts';
import { AnswerLane } from './platform/http/answer-lane.ts';
import { writeApiError } from './platform/http/write-error.ts';
import { frontDoor } from './front-door.ts';
import { isCacheOff } from './platform/cache-meter.ts';
import { registerOpenApiRoute } from './platform/http/openapi-route.ts';
import { registerApiRoutes } from './routes.ts';
import { registerSiteRoutes } from './site-routes.ts';
import { apiUrls, forHost } from './platform/http/addresses.ts';
import { readHealth } from './health/route.ts';
import { accessMiddleware } from './access/middleware.ts';
import { siteSecurityHeaders } from './platform/http/security-headers.ts';
import { StaticSite } from './platform/static/static-site.ts';
import { serveStaticSite } from './platform/static/serve.ts';
import { renderedPages } from './publications/rendered-pages.ts';
import { captureGet, type ApiCaller, type SsrHandler } from './publications/render-capture.ts';
import type { McpEndpoint } from './mcp/http.ts';

export interface AppOptions {
  /** Handler for Astro's on-demand pages (dist/server/entry.mjs in middleware mode), when built. */
  ssrHandler?: RequestHandler;
  /** Extra API routes (tests use this to exercise the error path with a route that throws). */
  extraApiRoutes?: (registry: ApiRegistry) => void;
  /** The built site, when already loaded (default: dist/client, loaded by createApp). */
  site?: StaticSite;
}

export interface BuiltApp {
  app: Express;
  /** What the server listens with: the front door (kept public answers), then the app. */
  handler: RequestListener;
  registry: ApiRegistry;
  /** The built site the app serves; put() adds or replaces a file while it runs. */
  site: StaticSite;
  /** The MCP endpoint; at shutdown its `close` ends open subscriptions with their closing message. */
  mcp: McpEndpoint;
}

export function createApp(deps: AppDeps, options: AppOptions = {}): BuiltApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'strong');
  if (deps.config.TRUST_PROXY !== undefined) app.set('trust proxy', parseTrustProxy(deps.config.TRUST_PROXY));

  // Public API answers kept for a second and answered again by the front door (front-door.ts).
  const lane = isCacheOff('answer-lane') ? undefined : new AnswerLane();
  if (lane) deps.services.datasets.onInvalidate(() => lane.clear());
  const registry = new ApiRegistry(lane);
  // Keys and rate limits run before every API route (not /healthz or /openapi.json: see the middleware).
  registry.use(accessMiddleware(deps));
  registerApiRoutes(registry, deps);
  options.extraApiRoutes?.(registry);
  registerOpenApiRoute(registry, deps);

  const apiRouter = registry.buildRouter();
  const apiErrorHandler = errorHandler(deps, true);
  const apiNotFound: RequestHandler = (req, _res, next) => {
    next(new NotFoundError(`No API resource at ${req.method} ${req.path}. See ${apiUrls(deps).documentation} for the list.`));
  };

  app.use(requestContext(deps.logger));

  // The API host serves the same router without the /api/v1 prefix, and nothing else.
  const apiHostApp = express.Router();
  apiHostApp.use(apiRouter, withCors(apiNotFound), apiErrorHandler);
  app.use(forHost(deps.config.API_HOST, apiHostApp));

  app.get('/healthz', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await readHealth(deps));
  });
  app.use('/api/v1', apiRouter, withCors(apiNotFound), apiErrorHandler);

  const { mcp } = registerSiteRoutes(app, deps, options.ssrHandler as SsrHandler | undefined);
  app.use('/api', apiNotFound, apiErrorHandler);

  // The built site, in memory (api/platform/static): loaded here unless the caller loaded it.
  const site = options.site ?? StaticSite.load(path.join(deps.config.distDir, 'client'), deps.config);
  site
    .compressPending()
    .catch((error: unknown) => deps.logger.error({ err: error }, 'compressing the built site failed; it is served uncompressed'));
  serveSite(app, deps, options, site, apiCaller(deps, registry.buildRouter({ middleware: false }), apiErrorHandler));
  app.use(errorHandler(deps, false));
  return { app, handler: lane ? frontDoor(app, deps, lane) : app, registry, site, mcp };
}

/**
 * A 404 on an API path still carries the API's CORS headers, so browsers can read the error; a
 * preflight for any API path gets its 204 (the actual request then gets the 404).
 */
function withCors(handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    setCorsHeaders(res);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    handler(req, res, next);
  };
}

/** The server's own GETs of its API, answered in process without keys or limits (the API docs page's examples). */
function apiCaller(deps: AppDeps, router: express.Router, onError: ErrorRequestHandler): ApiCaller {
  // The synthetic request does not pass through an Express app, which is what defines req.query: read it
  // here as the app's own ("simple") query parser would.
  const withQuery: RequestHandler = (req, _res, next) => {
    Object.defineProperty(req, 'query', {
      value: querystring.parse((req.url ?? '').split('?')[1] ?? ''),
      configurable: true,
      enumerable: true,
      writable: true,
    });
    next();
  };
  const api = express.Router().use(withQuery, router, onError);
  return async (pathWithQuery) => {
    const page = await captureGet(api, deps, pathWithQuery, 'application/json');
    if (!page) return { status: 404, contentType: 'application/json', body: '' };
    return { status: page.status, contentType: String(page.headers['content-type'] ?? ''), body: page.bytes.toString('utf8') };
  };
}

function serveSite(app: Express, deps: AppDeps, options: AppOptions, site: StaticSite, callApi: ApiCaller): void {
  // Helmet's headers on pages, files and the 404 page only: the API above keeps its CORS headers.
  app.use(siteSecurityHeaders(deps.config.baseUrl));
  app.use(serveStaticSite(site));
  const ssrHandler = options.ssrHandler as SsrHandler | undefined;
  // On-demand pages (/news, /search) read live data through the app's own dependencies
  // (Astro.locals.deps): the node adapter's middleware takes locals as its fourth argument. Those
  // without a query string are rendered once per data version (api/publications/rendered-pages.ts).
  if (ssrHandler) app.use(renderedPages(deps, ssrHandler, callApi));
  const notFoundPage = site.get('/404.html')?.variants.identity.body;
  app.use((_req, res) => {
    res.status(404);
    res.setHeader('Cache-Control', 'no-cache');
    if (notFoundPage) res.type('html').send(notFoundPage);
    else res.type('text/plain').send('Not found');
  });
}

function errorHandler(deps: AppDeps, api: boolean): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const { body, headers, expected } = toErrorResponse(error);
    if (!expected) deps.logger.error({ err: error, requestId: req.id }, 'unhandled error');
    if (res.headersSent) {
      res.end();
      return;
    }
    if (api) {
      writeApiError(res, body, headers);
      return;
    }
    res.set(headers);
    res.setHeader('Cache-Control', 'no-store');
    if (req.path.startsWith('/api/') || req.accepts(['html', 'json']) === 'json') {
      res.status(body.status).json(body);
    } else {
      res.status(body.status).type('text/plain').send(body.error);
    }
  };
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
