// What a publication is: a set of static files (under /data/) derived only from datasets that change
// with a sync. Each file is the REST answer to one query, byte for byte, so the files and the API
// can never disagree; `rest` names that query for the index and for readers.
import type { DomainServices } from '../domain-services.ts';

export interface PublishedFile {
  /** Below /data/, e.g. `statistics/all.json`; always starts with the publication's name. */
  path: string;
  body: string;
  contentType: string;
  /** The REST request (below /api/v1) whose body is these bytes, e.g. `/statistics?all=true`. */
  rest: string;
}

export interface ProduceContext {
  /** The host named in calendar event UIDs, as GET /calendar?format=ics names it. */
  host: string;
  /** The current year (UTC): the calendar is published from its first year to a few years ahead of it. */
  year: number;
}

/** The services publications are produced from. */
export type PublishedServices = Pick<DomainServices, 'calendar' | 'escrow' | 'loanLimits' | 'statistics'>;

export interface Publication {
  /** Also the first segment of every path it produces, e.g. `statistics`. */
  name: string;
  /** The datasets whose loads it is derived from: a new load of any of them regenerates it. */
  datasets: readonly string[];
  /** One file at a time: the store encodes each before the next is composed, so the bodies are never all in memory at once. */
  produce(services: PublishedServices, context: ProduceContext): AsyncIterable<PublishedFile>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const ICS_TYPE = 'text/calendar; charset=utf-8';
