// Pinned dataset versions in the contract vocabulary: the `dataset_versions` every data answer
// carries (which load of which dataset it was computed from) and the `as_of` parameter that asks
// for the figures as this service served them on a past day.
import { z } from 'zod';
import { calendarDate } from './lenient.ts';

/** Loads of each dataset kept for `as_of` answers; older ones are pruned (their ids stay known). */
export const KEPT_DATASET_VERSIONS = 8;

export const DatasetVersionSchema = z.object({
  dataset: z.string().describe('The dataset, as /healthz lists it, e.g. "pmms".'),
  version: z
    .string()
    .describe('Its version: the publisher\'s vintage and the first 8 hex digits of the content checksum, e.g. "2026-01-01.3f9a2c1b".'),
  as_of: z.string().nullable().describe("YYYY-MM-DD: the publisher's date of that version's data."),
});
export type DatasetVersion = z.infer<typeof DatasetVersionSchema>;

export const DatasetVersionsSchema = z
  .array(DatasetVersionSchema)
  .describe('The dataset versions this answer was computed from; pass `as_of` to get the figures of an earlier day again.');

/**
 * The `as_of` parameter: a past (or today's) day whose served figures the caller wants. Said in one
 * sentence: what happens to a day no longer kept is the operation's description (REST) and the
 * server's instructions (MCP).
 */
export function datasetAsOf() {
  return calendarDate().optional().describe("As served at this day's end.");
}

/** What an operation's description adds about pinned versions. */
export const PINNED_VERSIONS_NOTE =
  ' Every answer names the dataset versions behind it (`dataset_versions`); `as_of=YYYY-MM-DD` answers with the figures ' +
  `as this service served them at the end of that day (UTC). The last ${KEPT_DATASET_VERSIONS} loads of each dataset are kept.`;

/** The documented statuses of an `as_of` request that cannot be answered. */
export const PINNED_VERSION_ERRORS = {
  404: 'For `as_of`: this service had not loaded a dataset the answer needs by that day; the message names the oldest kept version.',
  410: 'For `as_of`: the version served that day is no longer kept; the message names the oldest kept version.',
} as const;

/** What the MCP server's instructions say once about pinned versions, for every tool that takes `as_of`. */
export const PINNED_VERSIONS_INSTRUCTIONS =
  '`dataset_versions` in a result names the dataset loads behind it; `as_of` (YYYY-MM-DD, on the tools that take it) answers ' +
  `with the figures as this service served them at the end of that day (UTC). The last ${KEPT_DATASET_VERSIONS} loads of each dataset ` +
  'are kept: an older day is refused naming the oldest kept version, a day before a dataset was first loaded or a future day too.';
