// The webhook routes, for key holders: POST /webhooks registers one (its secret answered once), GET
// /webhooks lists the account's, GET and DELETE /webhooks/{id}, and GET /webhooks/{id}/deliveries
// reads a hook's delivery log. A webhook belongs to the key's account: any key of it sees the same.
import type { Request } from 'express';
import type { AppDeps } from '../deps.ts';
import type { Config } from '../config.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { UnauthorizedError } from '../platform/errors.ts';
import { howToGetAKey } from '../access/identity.ts';
import { strictArguments } from '../platform/contract/strict.ts';
import {
  DeletedSchema,
  DeliveriesSchema,
  WebhookCreatedSchema,
  WebhookCreateSchema,
  WebhookListSchema,
  WebhookParamsSchema,
  WebhookSchema,
} from './contract.ts';

const TAGS = ['Webhooks'];
const SIGNING =
  'Each delivery is a POST of `{type: "dataset.version_published", timestamp, data}` (data: the update as GET ' +
  '/dataset-updates/{id} answers it), signed as Standard Webhooks specifies: headers `webhook-id` (the same on retries), ' +
  '`webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body" with the secret>`. A 2xx ' +
  'answer within 10 s delivers it; otherwise it is retried after 1 min, 5 min, 30 min, 2 h, 8 h and 24 h, and a hook ' +
  'whose attempts fail 15 times in a row is disabled.';

const notFound = { 404: 'Your account has no webhook with this id.' };

/** What the routes on /webhooks/:id share: the id parameter, its example and the tag. */
const BY_ID = { params: WebhookParamsSchema, example: { params: { id: '1' } }, tags: TAGS };

/** The webhook routes, as data; the limit per account is said in the description. */
function webhookContracts({ WEBHOOKS_PER_ACCOUNT }: Pick<Config, 'WEBHOOKS_PER_ACCOUNT'>) {
  return {
    createWebhook: routeContract({
      method: 'post',
      path: '/webhooks',
      operationId: 'createWebhook',
      example: { body: { url: 'https://hooks.example.org/mortgage-data', datasets: ['pmms', 'optimal_blue'] } },
      summary: 'Register a webhook: an HTTPS URL told of each new version of the datasets you name',
      description:
        `For key holders. The URL's host must resolve to public addresses only; the answer carries the signing secret, once. ${SIGNING} ` +
        `An account may have ${WEBHOOKS_PER_ACCOUNT} webhooks.`,
      tags: TAGS,
      body: strictArguments(WebhookCreateSchema, 'parameter'),
      corsMethods: 'POST',
      responses: {
        200: { description: 'The webhook, with its secret (shown this once)', schema: WebhookCreatedSchema },
        ...errorResponses({ 409: 'The account has as many webhooks as it may; delete one first.' }),
      },
    }),
    listWebhooks: routeContract({
      method: 'get',
      path: '/webhooks',
      operationId: 'listWebhooks',
      example: {},
      summary: "Your account's webhooks, with each one's state",
      tags: TAGS,
      cache: 'none',
      responses: { 200: { description: 'The webhooks', schema: WebhookListSchema } },
    }),
    getWebhook: routeContract({
      method: 'get',
      path: '/webhooks/:id',
      operationId: 'getWebhook',
      summary: 'One of your webhooks: URL, datasets, state, failures in a row',
      ...BY_ID,
      cache: 'none',
      responses: { 200: { description: 'The webhook', schema: WebhookSchema }, ...errorResponses(notFound) },
    }),
    deleteWebhook: routeContract({
      method: 'delete',
      path: '/webhooks/:id',
      operationId: 'deleteWebhook',
      summary: 'Delete one of your webhooks and its delivery log',
      ...BY_ID,
      corsMethods: 'DELETE',
      responses: { 200: { description: 'It is gone', schema: DeletedSchema }, ...errorResponses(notFound) },
    }),
    listWebhookDeliveries: routeContract({
      method: 'get',
      path: '/webhooks/:id/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: "A webhook's delivery log: each delivery's state and every attempt's time, status and error",
      ...BY_ID,
      cache: 'none',
      responses: { 200: { description: 'The last 50 deliveries, newest first', schema: DeliveriesSchema }, ...errorResponses(notFound) },
    }),
  };
}

/** The webhook routes and their handlers; the contracts read the configured limit per account. */
export function webhookRoutes(settings: Pick<Config, 'WEBHOOKS_PER_ACCOUNT'>) {
  return apiRoutes(webhookContracts(settings), (deps: AppDeps) => {
    const accountOf = (req: Request): string => {
      if (req.identity?.kind !== 'key')
        throw new UnauthorizedError(`Webhooks belong to an account: send your API key. ${howToGetAKey(deps.config)}`);
      return req.identity.accountId;
    };
    return {
      createWebhook: ({ body, req }) => deps.services.webhooks.create(accountOf(req), body),
      listWebhooks: async ({ req }) => ({
        webhooks: await deps.services.webhooks.list(accountOf(req)),
        limit: deps.config.WEBHOOKS_PER_ACCOUNT,
      }),
      getWebhook: ({ params, req }) => deps.services.webhooks.get(accountOf(req), params.id),
      deleteWebhook: async ({ params, req }) => {
        await deps.services.webhooks.remove(accountOf(req), params.id);
        return { id: params.id, deleted: true as const };
      },
      listWebhookDeliveries: async ({ params, req }) => ({
        deliveries: await deps.services.webhooks.deliveries(accountOf(req), params.id),
      }),
    };
  });
}
