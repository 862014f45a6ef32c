// GET /healthz: 200 while the process serves, whatever data is loaded (contract "Health"). For each
// dataset: its state (loaded, loading since when, last load failed when and why, never loaded), the
// publisher's as-of date and, separately, when our sync published it. And the rate-limit store:
// `degraded` while it does not answer and requests pass unlimited. A dataset `missing` by design in
// this setup (its source has nothing to load here, e.g. no HMDA loan records) is listed apart from a
// `failed` one and does not make the service degraded; before any dataset is loaded the status is
// `starting`, not `ok`. An operator page: it may name commands (`hint`), which reader-facing answers
// never do.
import { z } from 'zod';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import type { AppDeps } from '../deps.ts';
import { HmdaLoadStatusSchema } from '../hmda/load-progress.ts';
import type { DatasetOverview } from '../platform/datasets.ts';
import { currentVersion } from '../platform/dataset-versions.ts';
import { datasetDefinitions } from '../sync/registry.ts';

const DatasetHealthSchema = z.object({
  state: z
    .enum(['loaded', 'loading', 'failed', 'missing', 'never_loaded'])
    .describe(
      '`loaded`: served. `loading`: not loaded yet, a load runs now. `failed`: not loaded, its last load failed (a fault to look at). ' +
        '`missing`: missing by design here: its source has nothing to load in this setup (a file the source folder lacks, no HMDA loan ' +
        'records yet; `missing` says why, `expected` says it is expected): not a fault. `never_loaded`: no load was ever attempted.',
    ),
  as_of: z
    .string()
    .nullable()
    .describe("The publisher's date of the data (file vintage, release date or latest observation), YYYY-MM-DD; null until loaded."),
  synced_at: z.string().nullable().describe('When this service published its current load (ISO 8601): the sync date, not the data date.'),
  rows: z.int(),
  version: z
    .string()
    .nullable()
    .describe(
      'Its current version id: the publisher\'s vintage and the content checksum\'s first 8 hex digits, e.g. "2026-01-01.3f9a2c1b"; null until loaded.',
    ),
  source: z.string().nullable().describe('The publisher URL cited for it.'),
  loading_since: z.string().optional().describe('A load of it runs now (a first load or a refresh), since this moment.'),
  last_failure: z
    .object({ at: z.string(), reason: z.string().describe("Why, in one sentence about the publisher's file.") })
    .optional()
    .describe('Its latest load failed. A loaded dataset keeps serving its previous load meanwhile.'),
  hint: z.string().optional().describe('For the operator: how to load it.'),
  expected: z
    .string()
    .optional()
    .describe('Present when the state is `missing`: why that is expected in this setup, in one sentence, and that the rest serves.'),
  missing: z
    .array(z.string())
    .optional()
    .describe(
      'Present when parts of a dataset built from several publishers did not load, or when its latest sync found nothing to load here: one sentence each; earlier rows stay served.',
    ),
});

export const HEALTH_STATUSES = ['starting', 'ok', 'degraded'] as const;

export const HealthSchema = z.object({
  status: z
    .enum(HEALTH_STATUSES)
    .describe(
      '`degraded` when the database cannot be read right now, the rate-limit store does not answer (requests then pass unlimited), ' +
        'or a dataset is `failed` (its answers are 503 until a sync loads it; `failed_datasets` names them). `starting` when nothing ' +
        'is wrong but no dataset is loaded yet (a fresh install syncing: data answers are 503 with Retry-After meanwhile). `ok` otherwise. ' +
        'Datasets `missing` by design here (`missing_datasets`) do not make the service degraded.',
    ),
  failed_datasets: z
    .array(z.string())
    .optional()
    .describe('Present when status is `degraded` because of datasets: the ones `failed`, by name.'),
  missing_datasets: z
    .array(z.string())
    .optional()
    .describe('Datasets `missing` by design in this setup (each says why under `datasets`), by name; not a fault.'),
  version: z.string(),
  database: z.enum(['postgres', 'pglite']),
  limits: z
    .object({
      store: z.enum(['memory', 'postgres', 'redis']),
      state: z
        .enum(['ok', 'unavailable', 'off'])
        .describe('`unavailable`: the store does not answer and requests pass unlimited; `off`: every limit is 0.'),
      since: z.string().optional().describe('When the store stopped answering.'),
      passed_unlimited: z.int().optional().describe('Requests let through uncounted since then.'),
    })
    .describe('The rate-limit store.'),
  datasets: z.record(z.string(), DatasetHealthSchema),
  hmda_load: HmdaLoadStatusSchema.describe(
    'The background load of HMDA loan records (latest year, every state): progress, failures and what happens next.',
  ),
});

export type Health = z.infer<typeof HealthSchema>;

/** The default datasets: listed even before any load of them was attempted. */
const KNOWN_DATASETS = datasetDefinitions.filter((definition) => definition.syncByDefault !== false).map((definition) => definition.name);

/** A failure to fetch the publisher's files (the sentence of api/sync/failure-reason.ts), not one about their content. */
export function publisherUnreachable(reason: string): boolean {
  return /could not be retrieved/i.test(reason);
}

function datasetHealth(entry: DatasetOverview, sourceDir: string | undefined): z.infer<typeof DatasetHealthSchema> {
  const { record, availability } = entry;
  const command = `\`npm run sync -- ${entry.name}\``;
  const hint = entry.lastFailure
    ? publisherUnreachable(entry.lastFailure.reason)
      ? // Running the same command offline fails the same way: say what changes the outcome.
        `The publisher could not be reached: set MDS_SOURCE_DIR to a folder holding the publisher's files, or sync with access to the publisher, then run ${command}.`
      : `The service log has the details ("dataset sync failed"); ${record ? 'retry' : 'load it'} with ${command}.`
    : availability.state === 'never_loaded'
      ? `Load it with ${command}.`
      : availability.state === 'missing'
        ? sourceDir !== undefined
          ? `To load it anyway, provide what the reason names (a file in the source folder ${sourceDir}, or the records it depends on), then run ${command}.`
          : `Set MDS_SOURCE_DIR to a folder holding the publisher's files (where the reason says), or sync with access to the publisher, then run ${command}.`
        : undefined;
  const missing = [...(record?.missing ?? []), ...(entry.skipped ? [entry.skipped.reason] : [])];
  return {
    state: availability.state,
    as_of: record?.asOf ?? null,
    synced_at: record?.loadedAt ?? null,
    rows: record?.rows ?? 0,
    version: record ? currentVersion(record).version : null,
    source: record?.sourceUrl ?? null,
    ...(entry.loadingSince !== undefined ? { loading_since: entry.loadingSince } : {}),
    ...(entry.lastFailure ? { last_failure: entry.lastFailure } : {}),
    ...(hint !== undefined ? { hint } : {}),
    ...(availability.state === 'missing'
      ? {
          expected:
            'Expected in this setup: its source has nothing to load here (the reason is under `missing`); every other dataset serves.',
        }
      : {}),
    ...(missing.length > 0 ? { missing } : {}),
  };
}

/**
 * The service's status from its datasets and the limit store: `degraded` when a dataset failed or the
 * store does not answer, `starting` while no dataset is loaded yet, else `ok`; with the failed and
 * the missing-by-design datasets named apart.
 */
export function healthStatus(
  overview: readonly DatasetOverview[],
  limitsDown: boolean,
): Pick<Health, 'status' | 'failed_datasets' | 'missing_datasets'> {
  const named = (state: string) => overview.filter((entry) => entry.availability.state === state).map((entry) => entry.name);
  const failed = named('failed');
  const missing = named('missing');
  const anyLoaded = overview.some((entry) => entry.availability.state === 'loaded');
  return {
    status: limitsDown || failed.length > 0 ? 'degraded' : anyLoaded ? 'ok' : 'starting',
    ...(failed.length > 0 ? { failed_datasets: failed } : {}),
    ...(missing.length > 0 ? { missing_datasets: missing } : {}),
  };
}

export async function readHealth(deps: AppDeps): Promise<Health> {
  const base = { version: deps.config.version, database: deps.db.kind };
  const limits = await deps.services.access.limiter.check();
  const limitsDown = limits.state === 'unavailable';
  try {
    const overview = await deps.services.datasets.overview(KNOWN_DATASETS);
    // A failed dataset answers 503 until someone acts: the service is not all there. A missing one
    // has nothing to load in this setup, by design.
    return {
      ...healthStatus(overview, limitsDown),
      ...base,
      limits,
      datasets: Object.fromEntries(overview.map((entry) => [entry.name, datasetHealth(entry, deps.config.sourceDir)])),
      hmda_load: deps.services.hmda.progress.get(),
    };
  } catch {
    return { status: 'degraded', ...base, limits, datasets: {}, hmda_load: deps.services.hmda.progress.get() };
  }
}

const routes = {
  getHealth: routeContract({
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    example: {},
    summary: 'Service health, datasets and the rate-limit store',
    description: 'Always 200 while the process serves. Also at `/healthz` on the main host.',
    tags: ['Service'],
    cache: 'none',
    responses: { 200: { description: "Health, each dataset's state and dates, and the rate-limit store", schema: HealthSchema } },
  }),
};

export const healthRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  getHealth: () => readHealth(deps),
}));
