// SIGTERM while the service is busy: every request it had already received completes (REST
// responses whole, /ask streams through to `done`), requests arriving afterwards are refused at
// the door rather than cut off half-way, and the process exits 0.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { hasSourceData } from '../support/source-data.ts';
import type { TestDatabase } from '../support/databases.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An /ask request whose body is half sent: in flight until `finish()`. With `keepAlive` the client
 * asks to keep the connection and never closes it itself: only the server can end it.
 */
function halfSentAsk(url: string, { keepAlive = false }: { keepAlive?: boolean } = {}) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const body = JSON.stringify({ message: 'What are mortgage rates today?' });
  socket.write(
    `POST /api/v1/ask HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: ${keepAlive ? 'keep-alive' : 'close'}\r\n\r\n${body.slice(0, 10)}`,
  );
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const response = new Promise<string>((resolve) => {
    socket.on('end', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  return { finish: () => socket.write(body.slice(10)), response };
}

describe.skipIf(!hasSourceData)('SIGTERM under load', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-fault-term-'));

  beforeAll(async () => {
    database = await syncedTestDatabase('postgres', ['pmms', 'optimal_blue']);
    server = await startServerProcess({
      DATABASE_URL: database.url!,
      DATA_DIR: dataDir,
      RATE_LIMIT_ANON_PER_MINUTE: '0',
      RATE_LIMIT_KEY_PER_MINUTE: '0',
      RATE_LIMIT_PER_HOUR: '0',
      SHUTDOWN_TIMEOUT_MS: '15000',
    });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('completes every in-flight request and exits 0', async () => {
    const expected = await (await fetch(`${server.url}/api/v1/rates`)).text();
    // Twenty /ask requests held in flight, and 30 clients hammering the rates endpoint.
    const held = Array.from({ length: 20 }, (_, index) => halfSentAsk(server.url, { keepAlive: index % 2 === 0 }));
    let running = true;
    const outcomes = { complete: 0, refused: 0, broken: [] as string[] };
    const loops = Array.from({ length: 30 }, async () => {
      while (running) {
        let response: Response;
        try {
          response = await fetch(`${server.url}/api/v1/rates`);
        } catch {
          // Connection refused or reset before a request was accepted: the server is closing, and
          // this client, like a load balancer's, goes elsewhere.
          outcomes.refused += 1;
          return;
        }
        // Once the status line arrived, the request was accepted: its body must arrive whole.
        try {
          const text = await response.text();
          if (response.status === 200 && text === expected) outcomes.complete += 1;
          else outcomes.broken.push(`${response.status} ${text.slice(0, 80)}`);
        } catch (error) {
          outcomes.broken.push(`body cut off: ${(error as Error).message}`);
        }
      }
    });
    // Under way: more than 20 responses complete (asked every 50 ms, for at most 30 s).
    const underWay = Date.now() + 30_000;
    while (outcomes.complete <= 20 && Date.now() < underWay) await sleep(50);
    const completeBeforeTerm = outcomes.complete;
    const termAt = Date.now();
    server.child.kill('SIGTERM');
    await sleep(300);
    for (const request of held) request.finish();
    const answers = await Promise.all(held.map((request) => request.response));
    running = false;
    await Promise.all(loops);

    expect(await server.exited).toBe(0);
    // Drained, not timed out: nothing held a finished connection open until SHUTDOWN_TIMEOUT_MS,
    // not even the clients that keep theirs open (the server closes them after their answer).
    expect(Date.now() - termAt).toBeLessThan(12_000);
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer).toContain('"type":"sources"');
      expect(answer).toMatch(/"type":"done"\}\n\n(\r\n0\r\n\r\n)?$/);
    }
    expect(completeBeforeTerm).toBeGreaterThan(20);
    expect(outcomes.broken).toEqual([]);
  }, 60_000);
});
