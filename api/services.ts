// The domain services, built once per process from the core dependencies. A capability's REST
// route, MCP tool and /ask tool all call the same instance, so caches and data are shared. Every
// service is built one way, `createX({ the fields it reads })`, destructured in its signature: the
// database, logger and clock it uses, its settings by name (baseUrl, sourceDir, hmdaSettings(config))
// and the services it calls. The configuration is read here, so a test builds a service from literals.
import type { CoreDeps } from './platform/core-deps.ts';
import type { DomainServices } from './domain-services.ts';
import { createDatasetStatus } from './platform/datasets.ts';
import { createDatasetVersions } from './platform/dataset-versions.ts';
import { createGlossaryService } from './glossary/service.ts';
import { accessSettings, createAccessService } from './access/service.ts';
import { createSearchService } from './search/service.ts';
import { createNewsService } from './news/service.ts';
import { createBillsService } from './bills/service.ts';
import { createAskService, type AskService } from './ask/service.ts';
import { createRatesService } from './rates/service.ts';
import { createCalendarService } from './calendar/service.ts';
import { createEscrowService } from './escrow/service.ts';
import { createHmdaService, hmdaSettings } from './hmda/service.ts';
import { createLoanLimitsService } from './loan-limits/service.ts';
import { createHmdaAggregatesService } from './hmda-aggregates/service.ts';
import { createStatisticsService } from './statistics/service.ts';
import { createNmdbService } from './nmdb/service.ts';
import { createSeriesService } from './series/service.ts';
import { createResearchService } from './research/service.ts';
import { createAnalysisService } from './analysis/service.ts';
import { createDatasetUpdates } from './dataset-updates/service.ts';
import { createWebhookService } from './webhooks/service.ts';
import { createCatalogueService } from './catalogue/service.ts';

/** Search answers and the rates chart's history are reused for a minute (see each service's options). */
const SEARCH_ANSWER_TTL_MS = 60_000;
const RATE_HISTORY_TTL_MS = 60_000;

export interface Services extends DomainServices {
  /** Built last: it answers with the other services. */
  ask: AskService;
}

export async function createServices(core: CoreDeps): Promise<Services> {
  const { config, db, logger, clock } = core;
  const baseUrl = config.baseUrl;
  const datasets = createDatasetStatus({ db });
  const versions = createDatasetVersions({ db, datasets, clock });
  const datasetUpdates = createDatasetUpdates({ db, datasets, logger });
  const webhooks = createWebhookService({
    db,
    clock,
    baseUrl,
    allowedNetworks: config.WEBHOOK_ALLOW_NETWORKS,
    perAccount: config.WEBHOOKS_PER_ACCOUNT,
  });
  const escrow = createEscrowService({ sourceDir: config.sourceDir, clock });
  const series = createSeriesService({ db, logger, baseUrl, datasets });
  const bills = createBillsService({ db, baseUrl, datasets, clock });
  const glossary = createGlossaryService({ baseUrl });
  const access = await createAccessService({ db, clock, logger, ...accessSettings(config) });
  const search = createSearchService({ db, baseUrl, answerTtlMs: SEARCH_ANSWER_TTL_MS, clock });
  const news = createNewsService({ db, historyTtlMs: RATE_HISTORY_TTL_MS, clock });
  const rates = createRatesService({ db, logger, clock, baseUrl, datasets, versions });
  const calendar = createCalendarService({ db, datasets, versions, clock });
  const hmda = createHmdaService({ ...hmdaSettings(config), logger: logger.child({ service: 'hmda' }) });
  const loanLimits = createLoanLimitsService({ db, datasets, versions, clock, logger });
  const hmdaAggregates = createHmdaAggregatesService({ db, datasets, clock });
  const statistics = createStatisticsService({ db, datasets, versions, clock });
  const nmdb = createNmdbService({ db, datasets, logger: logger.child({ service: 'nmdb' }) });
  const analysis = createAnalysisService({ series, baseUrl });
  const catalogue = createCatalogueService({ series, counties: loanLimits, filers: (params) => hmdaAggregates.topLenders(params) });
  const research = createResearchService({ db, datasets, logger: logger.child({ service: 'research' }), escrow, bills });
  // Ask is given only the services its answerers and tools call.
  const ask = createAskService({
    config,
    clock,
    logger,
    services: {
      analysis,
      bills,
      catalogue,
      calendar,
      escrow,
      glossary,
      hmda,
      hmdaAggregates,
      loanLimits,
      rates,
      research,
      search,
      series,
      statistics,
    },
  });
  return {
    datasets,
    versions,
    datasetUpdates,
    glossary,
    access,
    search,
    news,
    bills,
    rates,
    calendar,
    escrow,
    hmda,
    loanLimits,
    hmdaAggregates,
    statistics,
    nmdb,
    series,
    analysis,
    catalogue,
    research,
    webhooks,
    ask,
  };
}

/** Releases what the services hold (timers, connections) at shutdown. */
export async function closeServices(services: Services): Promise<void> {
  // Capabilities that hold resources close them here.
  await services.access.close();
  await services.hmda.close();
}
