// The webhook queue's loop in each server process: every TICK_MS, and at once when a new version is
// published or a delivery ends, it queues what is new (./worker.ts fanOut) and starts what is due,
// up to the worker's concurrency in flight (a slow endpoint holds one slot, not the queue); once an
// hour it forgets deliveries past their kept month. One pass at a time; a failed pass is logged and
// the next tick tries again. Nothing of it runs on a sync's or a request's path.
import fs from 'node:fs';
import tls from 'node:tls';
import type { AppDeps } from '../deps.ts';
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions } from './worker.ts';

const TICK_MS = 5_000;
const PRUNE_EVERY_MS = 3_600_000;

type JobDeps = Pick<AppDeps, 'db' | 'clock' | 'logger' | 'config'> & { services: Pick<AppDeps['services'], 'datasetUpdates'> };

/** The trusted certificate authorities: Node's own, plus WEBHOOK_CA_FILE's when set. */
function trustedAuthorities(file: string | undefined): string[] | undefined {
  return file === undefined ? undefined : [...tls.rootCertificates, fs.readFileSync(file, 'utf8')];
}

export function deliveryWorkerFor(deps: JobDeps, overrides: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
  return createDeliveryWorker({
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger.child({ job: 'webhooks' }),
    findUpdate: (id) => deps.services.datasetUpdates.find(id),
    allowedNetworks: deps.config.WEBHOOK_ALLOW_NETWORKS,
    ca: trustedAuthorities(deps.config.WEBHOOK_CA_FILE),
    userAgent: `mortgage-data-service/${deps.config.version} (+${deps.config.baseUrl})`,
    ...overrides,
  });
}

export function startWebhookDelivery(deps: JobDeps, worker: DeliveryWorker = deliveryWorkerFor(deps), tickMs = TICK_MS): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let prunedAt = 0;
  let inFlight = 0;

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void pass(), delay);
    timer.unref();
  };
  const pass = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await worker.fanOut();
      const free = worker.concurrency - inFlight;
      const claimed = stopped || free <= 0 ? [] : await worker.claimDue(free);
      for (const delivery of claimed) {
        inFlight += 1;
        void worker.deliver(delivery).finally(() => {
          inFlight -= 1;
          schedule(0);
        });
      }
      if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        await worker.prune();
      }
    } catch (error) {
      if (!stopped) deps.logger.error({ err: error }, 'webhook queue pass failed');
    } finally {
      running = false;
      schedule(again ? 0 : tickMs);
      again = false;
    }
  };
  const unsubscribe = deps.services.datasetUpdates.onPublished(() => schedule(0));
  schedule(tickMs);
  return () => {
    stopped = true;
    unsubscribe();
    clearTimeout(timer);
  };
}
