// Webhooks for keyed accounts: what POST /webhooks takes, what the routes answer, and what a delivery
// carries (the Standard Webhooks payload: `type`, `timestamp`, `data`). Zod, and the dataset names.
import { z } from 'zod';
import { integer } from '../platform/contract/lenient.ts';
import { datasetDefinitions } from '../sync/registry.ts';
import { DatasetUpdateSchema } from '../dataset-updates/contract.ts';
import { MAX_URL_LENGTH } from './address-guard.ts';

export const DATASET_NAMES = datasetDefinitions.map((definition) => definition.name) as [string, ...string[]];

export const WEBHOOK_EVENT = 'dataset.version_published';

export const WebhookCreateSchema = z.object({
  url: z
    .string()
    .min(1)
    .max(MAX_URL_LENGTH)
    .describe(
      'Where deliveries are POSTed: an https:// URL whose host resolves to public addresses only (not private, loopback or link-local).',
    ),
  datasets: z
    .array(z.enum(DATASET_NAMES, { error: `a dataset is one of: ${DATASET_NAMES.join(', ')}` }))
    .max(DATASET_NAMES.length)
    .optional()
    .describe('Only new versions of these datasets; every dataset when omitted.'),
  description: z.string().max(200).optional().describe('A note for yourself, shown in lists.'),
});
export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;

export const WebhookParamsSchema = z.object({
  id: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).describe('The webhook, as `id` in the list.'),
});

export const WebhookSchema = z.object({
  id: z.int(),
  url: z.string(),
  datasets: z.array(z.string()).describe('The datasets it hears of; empty: all.'),
  description: z.string(),
  created_at: z.string(),
  status: z.enum(['active', 'disabled']),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable().describe('Why it was disabled (repeated failed deliveries); register it again to resume.'),
  consecutive_failures: z.int().describe('Failed attempts since the last success; the hook is disabled at the limit.'),
  deliveries_url: z.string().describe('Its delivery log.'),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookCreatedSchema = WebhookSchema.extend({
  secret: z
    .string()
    .describe('The signing secret (`whsec_…`), shown this once: verify each delivery with it (Standard Webhooks, HMAC-SHA256).'),
});

export const WebhookListSchema = z.object({
  webhooks: z.array(WebhookSchema),
  limit: z.int().describe('How many webhooks an account may have.'),
});

export const DeliveryAttemptSchema = z.object({
  at: z.string(),
  status: z.int().nullable().describe("The endpoint's HTTP status; null when there was no answer."),
  error: z.string().nullable(),
  ms: z.int(),
});

export const DeliverySchema = z.object({
  id: z.int(),
  message_id: z.string().describe('The `webhook-id` header: the same on every attempt, so a receiver can drop repeats.'),
  update: DatasetUpdateSchema.pick({ id: true, dataset: true, version: true }),
  state: z.enum(['pending', 'delivered', 'failed']).describe('failed: every attempt failed.'),
  attempts: z.array(DeliveryAttemptSchema),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

export const DeliveriesSchema = z.object({ deliveries: z.array(DeliverySchema).describe('Newest first; the last 50.') });

export const DeletedSchema = z.object({ id: z.int(), deleted: z.literal(true) });

/** What each delivery's body is. */
export const WebhookPayloadSchema = z.object({
  type: z.literal(WEBHOOK_EVENT),
  timestamp: z.string().describe('When the version was published (ISO 8601).'),
  data: DatasetUpdateSchema,
});
