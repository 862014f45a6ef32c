// Where every capability plugs its API routes in (served at /api/v1 and on the API host): one list
// of each capability's routes (contracts and handlers, api-registry.ts `apiRoutes`), which the app
// registers and from which the OpenAPI document is rendered without a service (api-description.ts).
// Routes outside the API (MCP, sign-in, feeds) plug in in site-routes.ts: the site's pages describe
// this table, so this file must not import them back.
import type { AppDeps } from './deps.ts';
import type { ApiRegistry, ApiRoutes } from './platform/http/api-registry.ts';
import type { RouteContract } from './platform/http/route-contract.ts';
import type { Config } from './config.ts';
import { healthRoutes } from './health/route.ts';
import { searchRoutes } from './search/route.ts';
import { glossaryRoutes } from './glossary/route.ts';
import { billsRoutes } from './bills/route.ts';
import { askRoutes } from './ask/route.ts';
import { ratesRoutes } from './rates/route.ts';
import { calendarRoutes } from './calendar/route.ts';
import { escrowRoutes } from './escrow/route.ts';
import { loanLimitsRoutes } from './loan-limits/route.ts';
import { statisticsRoutes } from './statistics/route.ts';
import { hmdaRoutes } from './hmda/route.ts';
import { seriesRoutes } from './series/route.ts';
import { analysisRoutes } from './analysis/route.ts';
import { researchRoutes } from './research/route.ts';
import { datasetUpdateRoutes } from './dataset-updates/route.ts';
import { webhookRoutes } from './webhooks/route.ts';

/** What the route contracts read of the configuration (a webhook description says the limit per account). */
export type RouteSettings = Pick<Config, 'WEBHOOKS_PER_ACCOUNT'>;

/** Every capability's routes, in the order they are registered and documented. */
function apiRouteSets(settings: RouteSettings): ApiRoutes<AppDeps>[] {
  return [
    healthRoutes,
    datasetUpdateRoutes,
    ratesRoutes,
    calendarRoutes,
    escrowRoutes,
    loanLimitsRoutes,
    statisticsRoutes,
    hmdaRoutes,
    seriesRoutes,
    analysisRoutes,
    researchRoutes,
    searchRoutes,
    glossaryRoutes,
    billsRoutes,
    askRoutes,
    webhookRoutes(settings),
  ];
}

export function registerApiRoutes(registry: ApiRegistry, deps: AppDeps): void {
  for (const routes of apiRouteSets(deps.config)) registry.mount(routes, deps);
}

/** Every API route as data: what the OpenAPI document describes without a running service. */
export function apiRouteContracts(settings: RouteSettings): RouteContract[] {
  return apiRouteSets(settings).flatMap((routes) => Object.values(routes.routes));
}
