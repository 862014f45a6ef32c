// Routes on the main host outside /api/v1 (MCP, sign-in, feeds, site files), mounted before the
// static site. Add one line per capability that has such routes.
import type { Express } from 'express';
import type { AppDeps } from './deps.ts';
import type { SsrHandler } from './publications/render-capture.ts';
import { registerAccessRoutes } from './access/account-routes.ts';
import { registerNewsRoutes } from './news/route.ts';
import { registerSiteInfoRoutes } from './site-info/route.ts';
import { registerMcpRoutes, type McpEndpoint } from './mcp/http.ts';
import { registerPublicationRoutes } from './publications/route.ts';
import { registerDatasetUpdateFeeds } from './dataset-updates/feed-route.ts';

/**
 * `pages`: the Astro handler, for the pages these routes draw (/account); absent when the site is not
 * built. Returns the MCP endpoint (its `close` ends the long-lived streams at shutdown).
 */
export function registerSiteRoutes(app: Express, deps: AppDeps, pages?: SsrHandler): { mcp: McpEndpoint } {
  registerAccessRoutes(app, deps, pages);
  registerNewsRoutes(app, deps);
  registerDatasetUpdateFeeds(app, deps);
  registerSiteInfoRoutes(app, deps);
  const mcp = registerMcpRoutes(app, deps);
  registerPublicationRoutes(app, deps);
  return { mcp };
}
