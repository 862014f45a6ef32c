// GET /healthz: 200 while the process serves, whatever data is loaded, listing each dataset's
// as-of date, row count and source (contract "Health").
import { z } from 'zod';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
import type { AppDeps } from '../deps.ts';
import { HmdaLoadStatusSchema } from '../hmda/load-progress.ts';

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']).describe('`degraded` when the database cannot be read right now.'),
  version: z.string(),
  database: z.enum(['postgres', 'pglite']),
  datasets: z.record(
    z.string(),
    z.object({
      as_of: z.string().nullable(),
      rows: z.int(),
      source: z.string(),
      missing: z
        .array(z.string())
        .optional()
        .describe('Present when parts of a dataset built from several publishers did not load: one sentence each; their earlier rows stay served.'),
    }),
  ),
  hmda_load: HmdaLoadStatusSchema.describe('The background load of HMDA loan records (latest year, every state): progress, failures and what happens next.'),
});

export type Health = z.infer<typeof HealthSchema>;

export async function readHealth(deps: AppDeps): Promise<Health> {
  try {
    const records = await deps.services.datasets.list();
    return {
      status: 'ok',
      version: deps.config.version,
      database: deps.db.kind,
      datasets: Object.fromEntries(
        records.map((record) => [
          record.name,
          { as_of: record.asOf, rows: record.rows, source: record.sourceUrl, ...(record.missing ? { missing: record.missing } : {}) },
        ]),
      ),
      hmda_load: deps.services.hmda.progress.get(),
    };
  } catch {
    return { status: 'degraded', version: deps.config.version, database: deps.db.kind, datasets: {}, hmda_load: deps.services.hmda.progress.get() };
  }
}

export function registerHealthRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.add({
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    summary: 'Service health and loaded datasets',
    description: 'Always 200 while the process serves. Also at `/healthz` on the main host.',
    tags: ['Service'],
    cache: 'none',
    responses: { 200: { description: 'Health and dataset status', schema: HealthSchema } },
    handler: () => readHealth(deps),
  });
}
