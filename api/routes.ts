// Where every capability plugs its API routes in (served at /api/v1 and on the API host). Add one
// line per capability. Routes outside the API (MCP, sign-in, feeds) plug in in site-routes.ts: the
// site's pages describe this table (api-description.ts), so this file must not import them back.
import type { AppDeps } from './deps.ts';
import type { ApiRegistry } from './platform/http/api-registry.ts';
import { registerHealthRoutes } from './health/route.ts';
import { registerSearchRoutes } from './search/route.ts';
import { registerGlossaryRoutes } from './glossary/route.ts';
import { registerBillsRoutes } from './bills/route.ts';
import { registerAskRoutes } from './ask/route.ts';
import { registerRatesRoutes } from './rates/route.ts';
import { registerCalendarRoutes } from './calendar/route.ts';
import { registerEscrowRoutes } from './escrow/route.ts';
import { registerLoanLimitsRoutes } from './loan-limits/route.ts';
import { registerStatisticsRoutes } from './statistics/route.ts';
import { registerHmdaRoutes } from './hmda/route.ts';
import { registerSeriesRoutes } from './series/route.ts';
import { registerAnalysisRoutes } from './analysis/route.ts';
import { registerResearchRoutes } from './research/route.ts';
import { registerDatasetUpdateRoutes } from './dataset-updates/route.ts';
import { registerWebhookRoutes } from './webhooks/route.ts';

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
