// Webhooks for keyed accounts: the routes (register, list, read, delete, delivery log; a key and the
// account's own hooks only), the address guard (a private or loopback address, given directly or by
// a name that resolves there, refused unless the operator opens the network), a failing endpoint
// retried with growing delays until the hook is disabled, and a delivery that never answers holding
// up neither the sync that published the version nor anything else.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncPublishing } from '../support/publish.ts';
import { startHttpsEndpoint, TEST_CA_FILE, type HttpsEndpoint } from '../support/https-endpoint.ts';
import { deliveryWorkerFor, startWebhookDelivery } from '../../api/webhooks/job.ts';
import { postTo } from '../../api/webhooks/post.ts';

interface Hook {
  id: number;
  status: string;
  consecutive_failures: number;
  disabled_reason: string | null;
}

describe('webhook routes and the address guard', () => {
  let database: TestDatabase;
  let strict: TestApp;
  let opened: TestApp;
  let strictServer: Awaited<ReturnType<typeof listen>>;
  let openedServer: Awaited<ReturnType<typeof listen>>;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    strict = await buildTestApp(database.db, { env: { WEBHOOKS_PER_ACCOUNT: '2' } });
    opened = await buildTestApp(database.db, { env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8, ::1/128' } });
    strictServer = await listen(strict.app);
    openedServer = await listen(opened.app);
    const keys = strict.deps.services.access.keys;
    ({ key } = await keys.createKey((await keys.findOrCreateAccountByEmail('hooks@example.org')).id, 'hooks'));
    ({ key: otherKey } = await keys.createKey((await keys.findOrCreateAccountByEmail('other@example.org')).id, 'other'));
  });
  afterAll(async () => {
    await strictServer?.close();
    await openedServer?.close();
    await strict?.close();
    await opened?.close();
    await database?.drop();
  });

  const post = (base: string, body: unknown, headers: Record<string, string> = { 'x-api-key': key }) =>
    fetch(`${base}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

  it('needs a key', async () => {
    const response = await post(strictServer.url, { url: 'https://hooks.example.org/x' }, {});
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toMatch(/Webhooks belong to an account: send your API key/);
    expect((await fetch(`${strictServer.url}/api/v1/webhooks`)).status).toBe(401);
  });

  it('refuses a private or loopback address, directly or by a name that resolves there', async () => {
    const refused = [
      ['https://127.0.0.1:8443/hook', /127\.0\.0\.1, a private, loopback or otherwise non-public address/],
      ['https://localhost/hook', /localhost resolves to .*non-public address/],
      ['https://[::1]/hook', /::1, a private/],
      ['https://10.20.30.40/hook', /10\.20\.30\.40/],
      ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254/],
      ['https://[::ffff:192.168.0.1]/hook', /non-public/],
    ] as const;
    for (const [url, message] of refused) {
      const response = await post(strictServer.url, { url });
      expect(response.status, url).toBe(400);
      expect(await errorOf(response), url).toMatch(message);
    }
    const plain = await post(strictServer.url, { url: 'http://hooks.example.org/x' });
    expect(plain.status).toBe(400);
    expect(await errorOf(plain)).toMatch(/HTTPS only/);
    const unknown = await post(strictServer.url, { url: 'https://127.0.0.1/x', datasets: ['pmms', 'no_such'], colour: 'red' });
    expect(unknown.status).toBe(400);
  });

  it('registers, lists, reads and deletes hooks where the operator opened loopback; an account sees only its own', async () => {
    const created = await post(openedServer.url, { url: 'https://localhost:9/hook', datasets: ['pmms'], description: 'test' });
    expect(created.status).toBe(200);
    const hook = (await created.json()) as Hook & { secret: string; datasets: string[]; deliveries_url: string };
    expect(hook).toMatchObject({ status: 'active', datasets: ['pmms'], consecutive_failures: 0 });
    expect(hook.secret).toMatch(/^whsec_/);
    const list = (await (await fetch(`${openedServer.url}/api/v1/webhooks`, { headers: { 'x-api-key': key } })).json()) as {
      webhooks: (Hook & { secret?: string })[];
    };
    expect(list.webhooks.map((entry) => entry.id)).toEqual([hook.id]);
    expect(list.webhooks[0]!.secret).toBeUndefined();
    expect((await fetch(`${openedServer.url}/api/v1/webhooks/${hook.id}`, { headers: { 'x-api-key': otherKey } })).status).toBe(404);
    const log = await fetch(`${openedServer.url}/api/v1/webhooks/${hook.id}/deliveries`, { headers: { 'x-api-key': key } });
    expect(await log.json()).toEqual({ deliveries: [] });

    // The first app allows two per account (WEBHOOKS_PER_ACCOUNT=2): a third is refused, whatever its address.
    expect((await post(openedServer.url, { url: 'https://127.0.0.1:9/second' })).status).toBe(200);
    const third = await post(strictServer.url, { url: 'https://hooks.example.org/third' });
    expect(third.status).toBe(409);
    expect(await errorOf(third)).toMatch(/An account may have 2 webhooks/);

    const deleted = await fetch(`${openedServer.url}/api/v1/webhooks/${hook.id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
    expect(await deleted.json()).toEqual({ id: hook.id, deleted: true });
    expect((await fetch(`${openedServer.url}/api/v1/webhooks/${hook.id}`, { headers: { 'x-api-key': key } })).status).toBe(404);
  });
});

describe.skipIf(!hasSourceData)('webhook deliveries that fail', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let endpoint: HttpsEndpoint;
  let accountId: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    endpoint = await startHttpsEndpoint();
    testApp = await buildTestApp(database.db, { env: { WEBHOOK_CA_FILE: TEST_CA_FILE, WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
    accountId = (await testApp.deps.services.access.keys.findOrCreateAccountByEmail('failing@example.org')).id;
  }, 120_000);
  afterAll(async () => {
    await endpoint?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('connects to the address that was checked, never resolving the name again (no DNS rebinding)', async () => {
    endpoint.answer = 204;
    const port = new URL(endpoint.url).port;
    const options = { ca: [fs.readFileSync(TEST_CA_FILE, 'utf8')], timeoutMs: 10_000 };
    // The name is only the certificate's: the connection goes to the checked address.
    await expect(
      postTo({ url: new URL(`https://localhost:${port}/pinned`), address: '127.0.0.1', family: 4 }, {}, '{}', options),
    ).resolves.toEqual({
      status: 204,
    });
    // A name that resolves nowhere is not looked up: the checked address answers, and TLS refuses its certificate for that name.
    await expect(
      postTo({ url: new URL(`https://rebound.invalid:${port}/pinned`), address: '127.0.0.1', family: 4 }, {}, '{}', options),
    ).rejects.toThrow(/altnames|rebound\.invalid/);
    expect(endpoint.received.map((request) => request.headers.host)).toEqual([`localhost:${port}`]);
    endpoint.received.length = 0;
  });

  it('retries a failing endpoint with growing delays, logs each attempt, and disables the hook after repeated failures', async () => {
    endpoint.answer = 500;
    const hook = await testApp.deps.services.webhooks.create(accountId, { url: `${endpoint.url}/failing`, datasets: ['pmms'] });
    const report = await syncPublishing(testApp.deps, ['pmms']);
    expect(report.results[0]?.status).toBe('ok');

    // The worker on a clock of its own, moved to each retry's time; disabled at the fourth failure in a row.
    let now = Date.now();
    const worker = deliveryWorkerFor(testApp.deps, {
      clock: () => new Date(now),
      retryDelaysMs: [1_000, 2_000, 4_000, 8_000],
      disableAfter: 4,
    });
    expect(await worker.fanOut()).toBe(1);
    expect(await worker.fanOut()).toBe(0);
    const due: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect(await worker.deliverDue()).toBe(1);
      const [delivery] = await testApp.deps.services.webhooks.deliveries(accountId, hook.id);
      expect(delivery!.attempts).toHaveLength(attempt);
      expect(delivery!.attempts.at(-1)).toMatchObject({ status: 500, error: 'answered 500' });
      if (delivery!.next_attempt_at === null) break;
      const next = Date.parse(delivery!.next_attempt_at);
      due.push(next - now);
      // Not yet due: nothing is sent before its time.
      expect(await worker.deliverDue()).toBe(0);
      now = next;
    }
    expect(endpoint.received).toHaveLength(4);
    // Each wait longer than the one before (1 s, 2 s, 4 s, 8 s, each ±10%).
    expect(due).toHaveLength(4);
    expect(due[0]).toBeGreaterThanOrEqual(900);
    for (let index = 1; index < due.length; index += 1) expect(due[index]).toBeGreaterThan(due[index - 1]!);

    const disabled = (await testApp.deps.services.webhooks.get(accountId, hook.id)) as Hook;
    expect(disabled).toMatchObject({ status: 'disabled', consecutive_failures: 4 });
    expect(disabled.disabled_reason).toMatch(/4 delivery attempts in a row failed \(the last: answered 500\)/);
    now += 60_000;
    expect(await worker.deliverDue()).toBe(0);
    expect(endpoint.received).toHaveLength(4);
  }, 180_000);

  it('never holds up the sync: a delivery that is never answered leaves the sync and the next one free', async () => {
    endpoint.answer = 'hang';
    endpoint.received.length = 0;
    await testApp.deps.services.webhooks.create(accountId, { url: `${endpoint.url}/hanging` });
    const stop = startWebhookDelivery(testApp.deps, deliveryWorkerFor(testApp.deps, { timeoutMs: 600_000 }), 50);
    try {
      const first = await syncPublishing(testApp.deps, ['optimal_blue']);
      expect(first.results[0]?.status).toBe('ok');
      await endpoint.waitFor(1);
      expect(endpoint.open).toBe(1);
      // The delivery is still waiting for an answer; another sync publishes and finishes all the same.
      const second = await syncPublishing(testApp.deps, ['counties']);
      expect(second.results[0]?.status).toBe('ok');
      expect(endpoint.open).toBeGreaterThanOrEqual(1);
    } finally {
      stop();
    }
  }, 180_000);
});
