// The webhook queue, worked in the background by any instance (./job.ts): each new dataset version
// becomes one delivery per active hook that wants it (a row in webhook_deliveries, so nothing is
// lost on a restart), sent signed (./signature.ts) to the checked address (./address-guard.ts,
// ./post.ts), retried with growing delays, logged attempt by attempt; a hook that keeps failing is
// disabled. Nothing here runs on a request's or a sync's path.
import type { Queryable } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { DatasetUpdate } from '../dataset-updates/contract.ts';
import { resolveTarget, type AllowedNetworks } from './address-guard.ts';
import { postTo } from './post.ts';
import { signature } from './signature.ts';
import { messageId } from './service.ts';
import { WEBHOOK_EVENT } from './contract.ts';

/** Waits before each retry: 7 attempts over about a day and a half. */
export const RETRY_DELAYS_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 8 * 3_600_000, 24 * 3_600_000];
/** Failed attempts in a row, across deliveries, after which a hook is disabled. */
export const DISABLE_AFTER_FAILURES = 15;
/** Versions older than this are not queued for a hook (one created later never gets a backlog). */
const FAN_OUT_WINDOW_MS = 7 * 24 * 3_600_000;
/** A claimed delivery is another instance's to retry if this one has not settled it by then. */
const LEASE_MS = 60_000;
/** How long a delivery's log is kept. */
const KEPT_MS = 30 * 24 * 3_600_000;

export interface DeliveryWorkerOptions {
  db: Queryable;
  clock: Clock;
  logger: Logger;
  /** The published version behind a delivery (the dataset-updates service's `find`). */
  findUpdate: (id: number) => Promise<DatasetUpdate | undefined>;
  allowedNetworks: AllowedNetworks;
  /** Certificate authorities to trust (the system's and WEBHOOK_CA_FILE's); Node's when undefined. */
  ca?: readonly string[];
  userAgent: string;
  retryDelaysMs?: readonly number[];
  disableAfter?: number;
  timeoutMs?: number;
  /** Deliveries sent at once. */
  concurrency?: number;
}

export interface DeliveryWorker {
  /** Deliveries sent at once. */
  readonly concurrency: number;
  /** Queues each recent version for every active hook that wants it and has not had it (idempotent). */
  fanOut(): Promise<number>;
  /** Takes up to `limit` due deliveries for this process (for a minute: then another may retry them). */
  claimDue(limit: number): Promise<Claimed[]>;
  /** One attempt at a claimed delivery, logged and scheduled again or settled; never rejects. */
  deliver(delivery: Claimed): Promise<void>;
  /** Claims what is due (up to `concurrency`) and attempts each; resolves with how many were tried. */
  deliverDue(): Promise<number>;
  /** Forgets deliveries older than the kept window. */
  prune(): Promise<void>;
}

export interface Claimed {
  id: string | number;
  webhook_id: string | number;
  version_id: string | number;
  tried: number;
  url: string;
  secret: string;
}

interface Attempt {
  at: string;
  status: number | null;
  error: string | null;
  ms: number;
}

const shortened = (text: string) => (text.length > 300 ? `${text.slice(0, 299)}…` : text);

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, clock, logger } = options;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const disableAfter = options.disableAfter ?? DISABLE_AFTER_FAILURES;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const concurrency = options.concurrency ?? 4;

  async function claimDue(limit: number): Promise<Claimed[]> {
    const now = clock();
    const { rows } = await db.query<Claimed>(
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND (d.leased_until IS NULL OR d.leased_until < $1) AND h.disabled_at IS NULL
         ORDER BY d.next_attempt_at, d.id LIMIT $3 FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_deliveries d SET leased_until = $2 FROM due, webhooks h
       WHERE d.id = due.id AND h.id = d.webhook_id
       RETURNING d.id, d.webhook_id, d.version_id, jsonb_array_length(d.attempts) AS tried, h.url, h.secret`,
      [now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString(), limit],
    );
    return rows;
  }

  /** One attempt: the signed POST, or why it could not be made. */
  async function attempt(delivery: Claimed, update: DatasetUpdate): Promise<Attempt> {
    const started = clock();
    const body = JSON.stringify({ type: WEBHOOK_EVENT, timestamp: update.published_at, data: update });
    const id = messageId(delivery.id);
    const timestamp = Math.floor(started.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': options.userAgent,
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(delivery.secret, id, timestamp, body),
    };
    const at = started.toISOString();
    const took = () => Math.max(0, Math.round(clock().getTime() - started.getTime()));
    try {
      const target = await resolveTarget(delivery.url, options.allowedNetworks);
      const { status } = await postTo(target, headers, body, { ca: options.ca, timeoutMs });
      return { at, status, error: status >= 200 && status < 300 ? null : `answered ${status}`, ms: took() };
    } catch (error) {
      return { at, status: null, error: shortened((error as Error).message), ms: took() };
    }
  }

  async function settle(delivery: Claimed, outcome: Attempt): Promise<void> {
    const now = clock();
    const entry = JSON.stringify([outcome]);
    if (outcome.error === null) {
      await db.query(
        `UPDATE webhook_deliveries SET state = 'delivered', delivered_at = $2, attempts = attempts || $3::jsonb, leased_until = NULL WHERE id = $1`,
        [delivery.id, now.toISOString(), entry],
      );
      await db.query('UPDATE webhooks SET failures = 0 WHERE id = $1', [delivery.webhook_id]);
      return;
    }
    const delay = delays[Number(delivery.tried)];
    // ±10% so that many hooks failing together do not retry in step.
    const next = delay === undefined ? null : new Date(now.getTime() + delay * (0.9 + Math.random() * 0.2)).toISOString();
    await db.query(
      `UPDATE webhook_deliveries SET state = $2, next_attempt_at = $3, attempts = attempts || $4::jsonb, leased_until = NULL WHERE id = $1`,
      [delivery.id, next === null ? 'failed' : 'pending', next, entry],
    );
    const { rows } = await db.query<{ failures: number; disabled_at: unknown }>(
      `UPDATE webhooks SET failures = failures + 1,
         disabled_at = CASE WHEN failures + 1 >= $2 THEN $3::timestamptz ELSE disabled_at END,
         disabled_reason = CASE WHEN failures + 1 >= $2 THEN $4 ELSE disabled_reason END
       WHERE id = $1 RETURNING failures, disabled_at`,
      [
        delivery.webhook_id,
        disableAfter,
        now.toISOString(),
        `${disableAfter} delivery attempts in a row failed (the last: ${outcome.error})`,
      ],
    );
    if (rows[0]?.disabled_at !== null && rows[0]?.failures === disableAfter)
      logger.info({ webhook: Number(delivery.webhook_id) }, 'webhook disabled after repeated failures');
  }

  async function deliver(delivery: Claimed): Promise<void> {
    try {
      const update = await options.findUpdate(Number(delivery.version_id));
      if (update !== undefined) await settle(delivery, await attempt(delivery, update));
    } catch (error) {
      logger.error({ err: error, delivery: Number(delivery.id) }, 'webhook delivery failed');
    }
  }

  return {
    concurrency,
    claimDue,
    deliver,
    async fanOut() {
      const now = clock();
      const result = await db.query(
        `INSERT INTO webhook_deliveries (webhook_id, version_id, next_attempt_at, created_at)
         SELECT h.id, v.id, $1, $1 FROM webhooks h
         JOIN dataset_versions v ON v.published_at >= h.created_at AND v.published_at > $2
         WHERE h.disabled_at IS NULL AND (cardinality(h.datasets) = 0 OR v.dataset = ANY (h.datasets))
         ON CONFLICT (webhook_id, version_id) DO NOTHING`,
        [now.toISOString(), new Date(now.getTime() - FAN_OUT_WINDOW_MS).toISOString()],
      );
      return result.rowCount;
    },
    async deliverDue() {
      const claimed = await claimDue(concurrency);
      await Promise.all(claimed.map(deliver));
      return claimed.length;
    },
    async prune() {
      await db.query('DELETE FROM webhook_deliveries WHERE created_at < $1', [new Date(clock().getTime() - KEPT_MS).toISOString()]);
    },
  };
}
