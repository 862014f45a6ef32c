// The shared rate-limit store goes away under traffic and comes back, for Redis and PostgreSQL: the
// API keeps answering (requests pass unlimited meanwhile), /healthz says `degraded` with the store
// `unavailable` and then `ok` again, and the log says "unavailable" once when the outage starts and
// "answers again" once when it ends, however many requests passed in between. The store is reached
// through a TCP relay of the test's own, which the test cuts and restores; the real Redis and
// PostgreSQL are never touched.
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppDeps } from '../../api/deps.ts';
import { pingRoute } from '../support/ping-route.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { closeServices, createServices, type Services } from '../../api/services.ts';
import { listen, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';

const REDIS_URL = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

/** A TCP relay to `target` that can be cut (every connection dropped, the port closed) and restored on the same port. */
class Relay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  private readonly target: { host: string; port: number };

  constructor(target: { host: string; port: number }) {
    this.target = target;
  }

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe.each(['redis', 'postgres'] as const)('the %s limit store goes away and comes back', (store) => {
  let database: TestDatabase;
  let relay: Relay;
  let services: Services;
  let server: Awaited<ReturnType<typeof listen>>;
  let output = '';

  beforeAll(async () => {
    database = await createTestDatabase(store === 'postgres' ? 'postgres' : 'pglite');
    const target = store === 'redis' ? REDIS_URL : new URL(database.url!);
    relay = new Relay({ host: target.hostname, port: Number(target.port || (store === 'redis' ? 6379 : 5432)) });
    await relay.start();
    const through = new URL(target.toString());
    through.host = `127.0.0.1:${relay.port}`;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const config = testConfig({
      RATE_LIMIT_ANON_PER_MINUTE: '100000',
      RATE_LIMIT_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_PER_HOUR: '1000000',
      RATE_LIMIT_STORE: store,
      ...(store === 'redis' ? { REDIS_URL: through.toString() } : { DATABASE_URL: through.toString() }),
      LOG_LEVEL: 'info',
    });
    const core = { config, db: database.db, logger: createLogger('info', sink), clock: () => new Date() };
    services = await createServices(core);
    const deps: AppDeps = { ...core, services };
    server = await listen(createApp(deps, { extraApiRoutes: pingRoute }).handler);
  });

  afterAll(async () => {
    await server?.close();
    await closeServices(services);
    await relay?.cut();
    await database?.drop();
  });

  const ping = () => rawRequest(`${server.url}/api/v1/test-ping`);
  const health = async () =>
    JSON.parse((await rawRequest(`${server.url}/healthz`)).body) as { status: string; limits: Record<string, unknown> };

  it('serves unlimited while it is away, says so once, and once again when it is back', async () => {
    const counted = await ping();
    expect(counted.status).toBe(200);
    expect(counted.headers['ratelimit-limit']).toBeDefined();
    // No dataset is loaded in this scratch database: 'starting', which is not 'degraded'.
    expect(await health()).toMatchObject({ status: 'starting', limits: { store, state: 'ok' } });

    await relay.cut();
    const during = await Promise.all(Array.from({ length: 40 }, () => ping()));
    expect(during.every((response) => response.status === 200)).toBe(true);
    expect(during.some((response) => response.headers['ratelimit-limit'] === undefined)).toBe(true);
    // 40 more, later in the outage: still one line.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await Promise.all(Array.from({ length: 40 }, () => ping()));
    const down = await health();
    expect(down).toMatchObject({ status: 'degraded', limits: { store, state: 'unavailable', since: expect.any(String) } });
    expect(down.limits.passed_unlimited).toBeGreaterThanOrEqual(40);
    expect(count(output, 'rate-limit store unavailable')).toBe(1);
    expect(count(output, 'rate-limit store answers again')).toBe(0);

    await relay.start();
    // The client reconnects on its own; requests are counted again once it has.
    const deadline = Date.now() + 20_000;
    while ((await ping()).headers['ratelimit-limit'] === undefined) {
      if (Date.now() > deadline) throw new Error(`the ${store} store was not counting again within 20 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await Promise.all(Array.from({ length: 20 }, () => ping()));
    // /healthz asks the store itself at most every 5 s, so it may take that long to say ok.
    const healthDeadline = Date.now() + 10_000;
    let back = await health();
    while (back.status !== 'ok' && Date.now() < healthDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      back = await health();
    }
    expect(back).toMatchObject({ status: 'starting', limits: { store, state: 'ok' } });
    expect(count(output, 'rate-limit store unavailable')).toBe(1);
    expect(count(output, 'rate-limit store answers again')).toBe(1);
  }, 60_000);
});
