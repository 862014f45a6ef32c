// One published dataset version, told everywhere it is followed: a sync publishes a new version of
// the PMMS dataset, and an MCP client at 2026-07-28 listening to a PMMS series hears
// notifications/resources/updated, the dataset-updates feeds (RSS, JSON Feed, the API) carry the item
// with its version, as-of and counts, and a registered webhook receives a delivery over real HTTPS
// (a local endpoint with a self-signed certificate the service trusts, reached on loopback because
// the operator setting allows it) whose Standard Webhooks signature verifies with the hook's secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncPublishing } from '../support/publish.ts';
import { connectModernMcp } from '../support/mcp-modern-client.ts';
import { startHttpsEndpoint, TEST_CA_FILE, type HttpsEndpoint } from '../support/https-endpoint.ts';
import { verifySignature } from '../../api/webhooks/signature.ts';
import { deliveryWorkerFor, startWebhookDelivery } from '../../api/webhooks/job.ts';
import type { DatasetUpdate } from '../../api/dataset-updates/contract.ts';

const SERIES = 'mds://series/pmms/30-year';

describe.skipIf(!hasSourceData)('a published dataset version reaches MCP subscribers, the feeds and webhooks', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let endpoint: HttpsEndpoint;
  let client: Client;
  let key: string;
  let stopDeliveries: () => void;
  const notices: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    endpoint = await startHttpsEndpoint();
    testApp = await buildTestApp(database.db, {
      env: { WEBHOOK_CA_FILE: TEST_CA_FILE, WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', BASE_URL: 'http://localhost:3000' },
    });
    server = await listen(testApp.app);
    const account = await testApp.deps.services.access.keys.findOrCreateAccountByEmail('notices@example.org');
    ({ key } = await testApp.deps.services.access.keys.createKey(account.id, 'notices'));
    stopDeliveries = startWebhookDelivery(testApp.deps, deliveryWorkerFor(testApp.deps), 100);
    client = await connectModernMcp(server.url);
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      notices.push(notification.params.uri);
    });
  }, 120_000);

  afterAll(async () => {
    stopDeliveries?.();
    await client?.close();
    await server?.close();
    await endpoint?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('tells the subscriber, publishes the feed item and delivers a signed webhook', async () => {
    const created = await fetch(`${server.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ url: `${endpoint.url}/mortgage-data`, datasets: ['pmms'] }),
    });
    expect(created.status).toBe(200);
    const hook = (await created.json()) as { id: number; secret: string; status: string };
    expect(hook.status).toBe('active');

    const subscription = await client.listen({ resourceSubscriptions: [SERIES] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([SERIES]);

    const report = await syncPublishing(testApp.deps, ['pmms']);
    expect(report.results[0]).toMatchObject({ name: 'pmms', status: 'ok' });
    const version = report.results[0]!.version!;

    // The MCP notice, on the listen stream.
    await expect.poll(() => notices, { timeout: 20_000 }).toContain(SERIES);

    // The feed item, in both feeds and the API.
    const json = (await (await fetch(`${server.url}/dataset-updates.json`)).json()) as {
      items: { title: string; content_text: string; _mortgage_data: DatasetUpdate }[];
    };
    const item = json.items.find((candidate) => candidate._mortgage_data.dataset === 'pmms')!;
    expect(item._mortgage_data).toMatchObject({ version, previous_version: null, previous_rows: null });
    expect(item._mortgage_data.rows).toBeGreaterThan(1000);
    expect(item._mortgage_data.changed_rows).toBe(item._mortgage_data.rows);
    expect(item.content_text).toMatch(
      new RegExp(`pmms ${version.replace('.', '\\.')} as of \\d{4}-\\d{2}-\\d{2}: [\\d,]+ rows \\(first load\\)`),
    );
    const rss = await (await fetch(`${server.url}/dataset-updates.xml`)).text();
    expect(rss).toContain(`<title>pmms: version ${version}`);
    expect(rss).toContain(`http://localhost:3000/api/v1/dataset-updates/${item._mortgage_data.id}`);
    const api = (await (await fetch(`${server.url}/api/v1/dataset-updates?limit=5`)).json()) as { updates: DatasetUpdate[] };
    expect(api.updates[0]).toEqual(item._mortgage_data);

    // The webhook delivery, signed with the hook's secret.
    await endpoint.waitFor(1);
    const [delivery] = endpoint.received;
    expect(delivery!.path).toBe('/mortgage-data');
    const id = String(delivery!.headers['webhook-id']);
    const timestamp = Number(delivery!.headers['webhook-timestamp']);
    expect(verifySignature(hook.secret, id, timestamp, delivery!.body, String(delivery!.headers['webhook-signature']))).toBe(true);
    expect(
      verifySignature(
        `whsec_${Buffer.alloc(32).toString('base64')}`,
        id,
        timestamp,
        delivery!.body,
        String(delivery!.headers['webhook-signature']),
      ),
    ).toBe(false);
    expect(JSON.parse(delivery!.body)).toEqual({
      type: 'dataset.version_published',
      timestamp: item._mortgage_data.published_at,
      data: item._mortgage_data,
    });

    // The delivery log the account reads.
    await expect
      .poll(async () => {
        const log = (await (
          await fetch(`${server.url}/api/v1/webhooks/${hook.id}/deliveries`, { headers: { 'x-api-key': key } })
        ).json()) as {
          deliveries: { state: string; message_id: string; attempts: { status: number | null }[] }[];
        };
        return log.deliveries[0];
      })
      .toMatchObject({ state: 'delivered', message_id: id, attempts: [{ status: 204 }] });
    await subscription.close();
  }, 180_000);
});
