// The domain services, built once per process from the core dependencies. A capability's REST
// route, MCP tool and /ask tool all call the same instance, so caches and data are shared.
import type { CoreDeps } from './deps.ts';
import { createDatasetStatus, type DatasetStatus } from './platform/datasets.ts';
import { createDatasetVersions, type DatasetVersions } from './platform/dataset-versions.ts';
import { createGlossaryService, type GlossaryService } from './glossary/service.ts';
import { createAccessService, type AccessService } from './access/service.ts';
import { createSearchService, type SearchService } from './search/service.ts';
import { createNewsService, type NewsService } from './news/service.ts';
import { createBillsService, type BillsService } from './bills/service.ts';
import { createAskService, type AskService } from './ask/service.ts';
import { createRatesService, type RatesService } from './rates/service.ts';
import { createCalendarService, type CalendarService } from './calendar/service.ts';
import { createEscrowService, type EscrowService } from './escrow/service.ts';
import { createHmdaService, type HmdaService } from './hmda/service.ts';
import { createLoanLimitsService, type LoanLimitsService } from './loan-limits/service.ts';
import { createHmdaAggregatesService, type HmdaAggregatesService } from './hmda-aggregates/service.ts';
import { createStatisticsService, type StatisticsService } from './statistics/service.ts';
import { createNmdbService, type NmdbService } from './nmdb/service.ts';
import { createSeriesService, type SeriesService } from './series/service.ts';
import { createResearchService, type ResearchService } from './research/service.ts';
import { createAnalysisService, type AnalysisService } from './analysis/service.ts';

/** Search answers and the rates chart's history are reused for a minute (see each service's options). */
const SEARCH_ANSWER_TTL_MS = 60_000;
const RATE_HISTORY_TTL_MS = 60_000;

export interface Services {
  datasets: DatasetStatus;
  /** Which load of each dataset served a past day, and its archived snapshot (`as_of`). */
  versions: DatasetVersions;
  glossary: GlossaryService;
  access: AccessService;
  search: SearchService;
  news: NewsService;
  bills: BillsService;
  rates: RatesService;
  calendar: CalendarService;
  escrow: EscrowService;
  hmda: HmdaService;
  loanLimits: LoanLimitsService;
  hmdaAggregates: HmdaAggregatesService;
  statistics: StatisticsService;
  nmdb: NmdbService;
  series: SeriesService;
  /** Computations over the series (change, compare, rank, count…), with their inputs and method. */
  analysis: AnalysisService;
  research: ResearchService;
  /** Built last: it answers with the other services. */
  ask: AskService;
}

export async function createServices(core: CoreDeps): Promise<Services> {
  const datasets = createDatasetStatus(core.db);
  const versions = createDatasetVersions({ db: core.db, datasets, clock: core.clock });
  const escrow = createEscrowService(core);
  const series = createSeriesService(core, datasets);
  const bills = createBillsService(core.db, { baseUrl: core.config.baseUrl, datasets, clock: core.clock });
  const services: Omit<Services, 'ask'> = {
    datasets,
    versions,
    glossary: createGlossaryService(core.config.baseUrl),
    access: await createAccessService(core),
    search: createSearchService(core, { answerTtlMs: SEARCH_ANSWER_TTL_MS, clock: core.clock }),
    news: createNewsService(core.db, { historyTtlMs: RATE_HISTORY_TTL_MS, clock: core.clock }),
    bills,
    rates: createRatesService(core, datasets, versions),
    calendar: createCalendarService({ db: core.db, datasets, versions, clock: core.clock }),
    escrow,
    hmda: createHmdaService(core.config, core.logger.child({ service: 'hmda' })),
    loanLimits: createLoanLimitsService(core.db, { datasets, versions, clock: core.clock, logger: core.logger }),
    hmdaAggregates: createHmdaAggregatesService({ db: core.db, datasets, clock: core.clock }),
    statistics: createStatisticsService({ db: core.db, datasets, versions, clock: core.clock }),
    nmdb: createNmdbService({ db: core.db, datasets, logger: core.logger.child({ service: 'nmdb' }) }),
    series,
    analysis: createAnalysisService({ series, baseUrl: core.config.baseUrl }),
    research: createResearchService({ db: core.db, datasets, logger: core.logger.child({ service: 'research' }), escrow, bills }),
  };
  const withAsk = services as Services;
  withAsk.ask = createAskService({ ...core, services: withAsk });
  return withAsk;
}

/** Releases what the services hold (timers, connections) at shutdown. */
export async function closeServices(services: Services): Promise<void> {
  // Capabilities that hold resources close them here.
  await services.access.close();
  await services.hmda.close();
}
