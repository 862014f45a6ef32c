// Where every capability plugs in: its API routes (served at /api/v1 and on the API host) and any
// routes of its own outside the API (MCP, sign-in, feeds). Add one line per capability.
import type { Express } from 'express';
import type { AppDeps } from './deps.ts';
import type { ApiRegistry } from './platform/http/api-registry.ts';
import { registerHealthRoutes } from './health/route.ts';

export function registerApiRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registerHealthRoutes(registry, deps);
}

/** Routes on the main host outside /api/v1, mounted before the static site. */
export function registerSiteRoutes(_app: Express, _deps: AppDeps): void {
  // MCP (/api/mcp), sign-in (/auth, /account) and dynamic feeds register here.
}
