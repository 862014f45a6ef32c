// Every service but ask, by name: the vocabulary a module uses to say which services it calls
// (`UsesServices<'rates' | 'series'>`). Types only, so any module may import it; ask is not here
// because it is built from these (api/services.ts adds it).
import type { DatasetStatus } from './platform/datasets.ts';
import type { DatasetVersions } from './platform/dataset-versions.ts';
import type { GlossaryService } from './glossary/service.ts';
import type { AccessService } from './access/service.ts';
import type { SearchService } from './search/service.ts';
import type { NewsService } from './news/service.ts';
import type { BillsService } from './bills/service.ts';
import type { RatesService } from './rates/service.ts';
import type { CalendarService } from './calendar/service.ts';
import type { EscrowService } from './escrow/service.ts';
import type { HmdaService } from './hmda/service.ts';
import type { LoanLimitsService } from './loan-limits/service.ts';
import type { HmdaAggregatesService } from './hmda-aggregates/service.ts';
import type { StatisticsService } from './statistics/service.ts';
import type { NmdbService } from './nmdb/service.ts';
import type { SeriesService } from './series/service.ts';
import type { ResearchService } from './research/service.ts';
import type { AnalysisService } from './analysis/service.ts';
import type { DatasetUpdates } from './dataset-updates/service.ts';
import type { WebhookService } from './webhooks/service.ts';
import type { CatalogueService } from './catalogue/service.ts';

export interface DomainServices {
  datasets: DatasetStatus;
  /** Which load of each dataset served a past day, and its archived snapshot (`as_of`). */
  versions: DatasetVersions;
  /** Each new dataset version as it is published: the feeds, MCP notices and webhooks follow it. */
  datasetUpdates: DatasetUpdates;
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
  /** The one catalogue of measures: words to series, the measures' words and qualifiers, the gazetteer. */
  catalogue: CatalogueService;
  research: ResearchService;
  /** Keyed accounts' webhooks (delivery is the background job's: api/webhooks/job.ts). */
  webhooks: WebhookService;
}

/** The services a module calls, and only those: `deps.services.rates` typed by its service. */
export interface UsesServices<Name extends keyof DomainServices> {
  services: Pick<DomainServices, Name>;
}
