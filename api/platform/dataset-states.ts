// The words every face uses when data is missing. REST bodies, MCP tool errors, /ask answers and
// pages all show the message of the error thrown here, so a reader sees the same sentence wherever
// they ask, and it says which of five things holds: the dataset was never loaded, it is loading now
// (since when), its last load failed (when, and why in one sentence about the publisher's file), its
// source has nothing to load on this server (a file the source folder lacks: not a fault), or the
// publisher does not publish what was asked for. No operator commands: those belong in the log
// and /healthz.
import { NotFoundError, ServiceUnavailableError } from './errors.ts';

export type DatasetAvailability =
  | { state: 'loaded' }
  | { state: 'never_loaded' }
  | { state: 'loading'; since: string }
  | { state: 'failed'; at: string; reason: string }
  | { state: 'missing'; at: string; reason: string };

/** A missing dataset's state: every availability but `loaded`. */
export type MissingDataset = Exclude<DatasetAvailability, { state: 'loaded' }>;

/** "2026-03-02 at 06:31 UTC": a moment the way a reader says it, in the zone every instance shares. */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const text = date.toISOString();
  return `${text.slice(0, 10)} at ${text.slice(11, 16)} UTC`;
}

/** Seconds a client should wait before asking again, by state. */
const RETRY_AFTER = { never_loaded: 300, loading: 60, failed: 3_600, missing: 3_600 } as const;

/** The sentence for a dataset that cannot be served. */
export function missingDatasetMessage(name: string, availability: MissingDataset): string {
  switch (availability.state) {
    case 'never_loaded':
      return `The ${name} dataset is not loaded yet: this service has never loaded it.`;
    case 'loading':
      return `The ${name} dataset is not loaded yet: it is loading now (since ${formatMoment(availability.since)}); retry in a minute.`;
    case 'failed':
      return `The ${name} dataset is not available: its last load failed on ${formatMoment(availability.at)}. ${availability.reason}`;
    case 'missing':
      return `The ${name} dataset is not available on this server: ${availability.reason}`;
  }
}

/** The 503 for a dataset that cannot be served, with a Retry-After that fits its state. */
export function missingDatasetError(name: string, availability: MissingDataset): ServiceUnavailableError {
  return new ServiceUnavailableError(missingDatasetMessage(name, availability), RETRY_AFTER[availability.state]);
}

/**
 * The 404 for something the publisher does not publish (a year before its first file, a program
 * without such a figure). `available` says what there is instead, e.g. "years 2018–2026".
 */
export function notPublishedError({
  publisher,
  subject,
  available,
}: {
  publisher: string;
  subject: string;
  available?: string;
}): NotFoundError {
  return new NotFoundError(`${publisher} does not publish ${subject}${available ? `; available: ${available}` : ''}.`);
}
