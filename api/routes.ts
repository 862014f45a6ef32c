// Where every capability plugs in: its API routes (served at /api/v1 and on the API host) and any
// routes of its own outside the API (MCP, sign-in, feeds). Add one line per capability.
import type { Express } from 'express';
import type { AppDeps } from './deps.ts';
import type { ApiRegistry } from './platform/http/api-registry.ts';
import { registerHealthRoutes } from './health/route.ts';
import { registerAccessRoutes } from './access/account-routes.ts';
import { registerSearchRoutes } from './search/route.ts';
import { registerNewsRoutes } from './news/route.ts';
import { registerSiteInfoRoutes } from './site-info/route.ts';
import { registerAskRoutes } from './ask/route.ts';
import { registerMcpRoutes } from './mcp/http.ts';
import { registerRatesRoutes } from './rates/route.ts';
import { registerCalendarRoutes } from './calendar/route.ts';
import { registerEscrowRoutes } from './escrow/route.ts';
import { registerLoanLimitsRoutes } from './loan-limits/route.ts';
import { registerStatisticsRoutes } from './statistics/route.ts';

export function registerApiRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registerHealthRoutes(registry, deps);
  registerRatesRoutes(registry, deps);
  registerCalendarRoutes(registry, deps);
  registerEscrowRoutes(registry, deps);
  registerLoanLimitsRoutes(registry, deps);
  registerStatisticsRoutes(registry, deps);
  registerSearchRoutes(registry, deps);
  registerAskRoutes(registry, deps);
}

/** Routes on the main host outside /api/v1, mounted before the static site. */
export function registerSiteRoutes(app: Express, deps: AppDeps): void {
  // MCP (/api/mcp), sign-in (/auth, /account) and dynamic feeds register here.
  registerAccessRoutes(app, deps);
  registerNewsRoutes(app, deps);
  registerSiteInfoRoutes(app, deps);
  registerMcpRoutes(app, deps);
}
