// An account's webhooks: register (the URL checked now as at every delivery, the secret shown once),
// list, read, delete, and read a hook's delivery log. Delivery itself is ./worker.ts's.
import type { Queryable } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { ConflictError, NotFoundError } from '../platform/errors.ts';
import { resolveTarget, type AllowedNetworks } from './address-guard.ts';
import { newSecret } from './signature.ts';
import type { Delivery, Webhook, WebhookCreate } from './contract.ts';

export interface WebhookService {
  create(accountId: string, request: WebhookCreate): Promise<Webhook & { secret: string }>;
  list(accountId: string): Promise<Webhook[]>;
  get(accountId: string, id: number): Promise<Webhook>;
  remove(accountId: string, id: number): Promise<void>;
  deliveries(accountId: string, id: number): Promise<Delivery[]>;
}

export interface WebhookServiceOptions {
  db: Queryable;
  clock: Clock;
  baseUrl: string;
  /** WEBHOOK_ALLOW_NETWORKS: private networks hooks may reach. */
  allowedNetworks: AllowedNetworks;
  /** WEBHOOKS_PER_ACCOUNT. */
  perAccount: number;
}

interface HookRow {
  id: string | number;
  url: string;
  datasets: string[];
  description: string;
  created_at: string | Date;
  failures: number;
  disabled_at: string | Date | null;
  disabled_reason: string | null;
}

interface DeliveryRow {
  id: string | number;
  version_id: string | number;
  dataset: string;
  version: string;
  state: Delivery['state'];
  attempts: Delivery['attempts'] | string;
  next_attempt_at: string | Date | null;
  delivered_at: string | Date | null;
  created_at: string | Date;
}

/** The delivery log shows this many, newest first. */
const LOG_LENGTH = 50;

export const iso = (value: string | Date | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The `webhook-id` of a delivery: the same on every attempt. */
export const messageId = (deliveryId: number | string): string => `msg_${deliveryId}`;

const HOOK_COLUMNS = 'id, url, datasets, description, created_at, failures, disabled_at, disabled_reason';

export function createWebhookService({ db, clock, baseUrl, allowedNetworks, perAccount }: WebhookServiceOptions): WebhookService {
  const toWebhook = (row: HookRow): Webhook => ({
    id: Number(row.id),
    url: row.url,
    datasets: row.datasets,
    description: row.description,
    created_at: iso(row.created_at)!,
    status: row.disabled_at === null ? 'active' : 'disabled',
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason,
    consecutive_failures: row.failures,
    deliveries_url: `${baseUrl}/api/v1/webhooks/${row.id}/deliveries`,
  });

  async function owned(accountId: string, id: number): Promise<HookRow> {
    const { rows } = await db.query<HookRow>(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE id = $1 AND account_id = $2`, [id, accountId]);
    if (rows[0] === undefined) throw new NotFoundError(`Your account has no webhook ${id}; list yours with GET /api/v1/webhooks.`);
    return rows[0];
  }

  return {
    async create(accountId, request) {
      const { rows: counted } = await db.query<{ n: string }>('SELECT count(*) AS n FROM webhooks WHERE account_id = $1', [accountId]);
      if (Number(counted[0]?.n ?? 0) >= perAccount)
        throw new ConflictError(`An account may have ${perAccount} webhooks; delete one (DELETE /api/v1/webhooks/{id}) first.`);
      // The address is checked now, for an answer that says what is wrong; and again at every delivery.
      await resolveTarget(request.url, allowedNetworks);
      const secret = newSecret();
      const { rows } = await db.query<HookRow>(
        `INSERT INTO webhooks (account_id, url, secret, datasets, description, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING ${HOOK_COLUMNS}`,
        [accountId, request.url, secret, [...new Set(request.datasets ?? [])], request.description ?? '', clock().toISOString()],
      );
      return { ...toWebhook(rows[0]!), secret };
    },
    async list(accountId) {
      const { rows } = await db.query<HookRow>(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE account_id = $1 ORDER BY id`, [accountId]);
      return rows.map(toWebhook);
    },
    async get(accountId, id) {
      return toWebhook(await owned(accountId, id));
    },
    async remove(accountId, id) {
      await owned(accountId, id);
      await db.query('DELETE FROM webhooks WHERE id = $1 AND account_id = $2', [id, accountId]);
    },
    async deliveries(accountId, id) {
      await owned(accountId, id);
      const { rows } = await db.query<DeliveryRow>(
        `SELECT d.id, d.version_id, v.dataset, v.version, d.state, d.attempts, d.next_attempt_at, d.delivered_at, d.created_at
         FROM webhook_deliveries d JOIN dataset_versions v ON v.id = d.version_id
         WHERE d.webhook_id = $1 ORDER BY d.id DESC LIMIT $2`,
        [id, LOG_LENGTH],
      );
      return rows.map((row) => ({
        id: Number(row.id),
        message_id: messageId(row.id),
        update: { id: Number(row.version_id), dataset: row.dataset, version: row.version },
        state: row.state,
        attempts: typeof row.attempts === 'string' ? (JSON.parse(row.attempts) as Delivery['attempts']) : row.attempts,
        next_attempt_at: row.state === 'pending' ? iso(row.next_attempt_at) : null,
        delivered_at: iso(row.delivered_at),
        created_at: iso(row.created_at)!,
      }));
    },
  };
}
