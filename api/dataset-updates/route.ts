// GET /dataset-updates and /dataset-updates/{id}: the dataset-updates feed as API answers, for
// clients that poll instead of reading a feed or registering a webhook (an item's link in the feeds).
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { NotFoundError } from '../platform/errors.ts';
import { DatasetUpdateParamsSchema, DatasetUpdateSchema, DatasetUpdatesAnswerSchema, DatasetUpdatesQuerySchema } from './contract.ts';

const routes = {
  listDatasetUpdates: routeContract({
    method: 'get',
    path: '/dataset-updates',
    operationId: 'listDatasetUpdates',
    example: { query: { limit: '5' } },
    summary: 'The dataset versions this service published, newest first: dataset, version, as-of and what changed in counts',
    description:
      'Each time a sync publishes a new version of a dataset. Poll with `after` set to the last `id` seen, or read the same ' +
      'updates as RSS or JSON Feed, or register a webhook (POST /webhooks) to be told.',
    tags: ['Datasets'],
    query: DatasetUpdatesQuerySchema,
    cache: 'none',
    responses: { 200: { description: 'The updates', schema: DatasetUpdatesAnswerSchema } },
  }),
  getDatasetUpdate: routeContract({
    method: 'get',
    path: '/dataset-updates/:id',
    operationId: 'getDatasetUpdate',
    example: { params: { id: '1' } },
    summary: 'One published dataset version: dataset, version, as-of and what changed in counts',
    tags: ['Datasets'],
    params: DatasetUpdateParamsSchema,
    responses: {
      200: { description: 'The update', schema: DatasetUpdateSchema },
      ...errorResponses({ 404: 'No update has this id; list them with GET /dataset-updates.' }),
    },
  }),
};

export const datasetUpdateRoutes = apiRoutes(routes, (deps: AppDeps) => {
  const feeds = { rss: `${deps.config.baseUrl}/dataset-updates.xml`, json: `${deps.config.baseUrl}/dataset-updates.json` };
  return {
    listDatasetUpdates: async ({ query }) => ({ updates: await deps.services.datasetUpdates.latest(query.limit, query.after), feeds }),
    getDatasetUpdate: async ({ params }) => {
      const update = await deps.services.datasetUpdates.find(params.id);
      if (update === undefined) throw new NotFoundError(`No dataset update has the id ${params.id}; list them with GET /dataset-updates.`);
      return update;
    },
  };
});
