// Where every capability plugs its API routes in (served at /api/v1 and on the API host): its
// contracts, as data, in apiRouteContracts (what the OpenAPI document describes, api-description.ts),
// and its registrar, which answers them, in registerApiRoutes; the two lists keep one order
// (tests/unit/api-examples.test.ts checks it). Routes outside the API (MCP, sign-in, feeds) plug in in
// site-routes.ts: the site's pages describe this table, so this file must not import them back.
import type { AppDeps } from './deps.ts';
import { describeRoute, type ApiRegistry, type RouteContract, type RouteDescription } from './platform/http/api-registry.ts';
import type { Config } from './config.ts';
import { registerHealthRoutes, healthRoutes } from './health/route.ts';
import { registerSearchRoutes, searchRoutes } from './search/route.ts';
import { registerGlossaryRoutes, glossaryRoutes } from './glossary/route.ts';
import { registerBillsRoutes, billsRoutes } from './bills/route.ts';
import { registerAskRoutes, askRoutes } from './ask/route.ts';
import { registerRatesRoutes, ratesRoutes } from './rates/route.ts';
import { registerCalendarRoutes, calendarRoutes } from './calendar/route.ts';
import { registerEscrowRoutes, escrowRoutes } from './escrow/route.ts';
import { registerLoanLimitsRoutes, loanLimitsRoutes } from './loan-limits/route.ts';
import { registerStatisticsRoutes, statisticsRoutes } from './statistics/route.ts';
import { registerHmdaRoutes, hmdaPresetRoutes, hmdaRoutes } from './hmda/route.ts';
import { registerSeriesRoutes, seriesRoutes } from './series/route.ts';
import { registerAnalysisRoutes, analysisRoutes } from './analysis/route.ts';
import { registerResearchRoutes, researchRoutes } from './research/route.ts';
import { registerDatasetUpdateRoutes, datasetUpdateRoutes } from './dataset-updates/route.ts';
import { registerWebhookRoutes, webhookRoutes } from './webhooks/route.ts';

export function registerApiRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registerHealthRoutes(registry, deps);
  registerDatasetUpdateRoutes(registry, deps);
  registerRatesRoutes(registry, deps);
  registerCalendarRoutes(registry, deps);
  registerEscrowRoutes(registry, deps);
  registerLoanLimitsRoutes(registry, deps);
  registerStatisticsRoutes(registry, deps);
  registerHmdaRoutes(registry, deps);
  registerSeriesRoutes(registry, deps);
  registerAnalysisRoutes(registry, deps);
  registerResearchRoutes(registry, deps);
  registerSearchRoutes(registry, deps);
  registerGlossaryRoutes(registry, deps);
  registerBillsRoutes(registry, deps);
  registerAskRoutes(registry, deps);
  registerWebhookRoutes(registry, deps);
}

/** What the route contracts read of the configuration (a webhook description says the limit per account). */
export type RouteSettings = Pick<Config, 'WEBHOOKS_PER_ACCOUNT'>;

/** Every API route as data, in the order registerApiRoutes registers them. */
export function apiRouteContracts(settings: RouteSettings): RouteDescription[] {
  const contracts: RouteContract[] = [
    ...Object.values(healthRoutes),
    ...Object.values(datasetUpdateRoutes),
    ...Object.values(ratesRoutes),
    ...Object.values(calendarRoutes),
    ...Object.values(escrowRoutes),
    ...Object.values(loanLimitsRoutes),
    ...Object.values(statisticsRoutes),
    ...hmdaPresetRoutes,
    ...Object.values(hmdaRoutes),
    ...Object.values(seriesRoutes),
    ...analysisRoutes,
    ...Object.values(researchRoutes),
    ...Object.values(searchRoutes),
    ...Object.values(glossaryRoutes),
    ...Object.values(billsRoutes),
    ...Object.values(askRoutes),
    ...Object.values(webhookRoutes(settings)),
  ];
  return contracts.map(describeRoute);
}
