// A client that stops reading an event stream: nothing may pile up for it. First the SSE writer of
// /ask (api/ask/sse.ts) under an endless producer: while the client pauses, the bytes waiting in the
// server's socket stay small and the producer is held back; reading again resumes the stream. Then
// /ask itself with a model endpoint that streams without end: the answer is capped where the model's
// output is read, the model connection is closed, and the stream still ends with sources and done.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSseStream } from '../../api/ask/sse.ts';
import { MAX_ANSWER_CHARS } from '../../api/ask/model/answerer.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { startMisbehavingModel, type MisbehavingModel } from './model-server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw HTTP client whose reading can be paused; counts bytes and keeps the tail of the text. */
function rawClient(port: number, request: string) {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(request);
  const state = { received: 0, tail: '', ended: false };
  socket.on('data', (data: Buffer) => {
    state.received += data.length;
    state.tail = (state.tail + data.toString()).slice(-4096);
  });
  socket.on('end', () => (state.ended = true));
  socket.on('error', () => (state.ended = true));
  return { socket, state };
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await sleep(25);
  return condition();
}

describe('the SSE writer with a client that stops reading', () => {
  let server: http.Server;
  let sent = 0;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    const app = express();
    // An endless producer that, like the /ask route, awaits every send.
    app.get('/stream', async (_req, res) => {
      const stream = openSseStream(res);
      const text = 'x'.repeat(8 * 1024);
      while (!stream.closed) {
        await stream.send({ type: 'chunk', text });
        sent += 1;
      }
      stream.end();
    });
    server = http.createServer(app);
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('holds the producer back and keeps the socket buffer small while paused, then resumes', async () => {
    const { port } = server.address() as AddressInfo;
    const { socket, state } = rawClient(port, `GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    try {
      expect(await waitFor(() => state.received > 1024 * 1024, 10_000)).toBe(true);
      socket.pause();
      await sleep(1_500); // kernel buffers on both sides fill up
      const sentAtPause = sent;
      let maxWritable = 0;
      for (let i = 0; i < 10; i += 1) {
        await sleep(100);
        for (const each of sockets) maxWritable = Math.max(maxWritable, each.writableLength);
      }
      // Without the drain wait, an 8 KiB message per turn of the event loop would be hundreds of MiB.
      expect(sent - sentAtPause).toBeLessThanOrEqual(2);
      expect(maxWritable).toBeLessThan(256 * 1024);

      socket.resume();
      const resumedAt = state.received;
      expect(await waitFor(() => state.received > resumedAt + 1024 * 1024, 10_000)).toBe(true);
      // The first MiB after resuming may all come from the kernel's buffers (they grow on a busy
      // machine): the producer is judged by what it sends, given time.
      expect(await waitFor(() => sent > sentAtPause + 2, 10_000)).toBe(true);
    } finally {
      socket.destroy();
    }
    // The client's departure stops the producer.
    await sleep(200);
    const afterClose = sent;
    await sleep(300);
    expect(sent).toBe(afterClose);
  }, 30_000);
});

describe('POST /ask with a model that streams without end and a client that stops reading', () => {
  let database: TestDatabase;
  let model: MisbehavingModel;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    model = await startMisbehavingModel('endless');
    testApp = await buildTestApp(database.db, {
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test-key', ASK_MODEL: 'fault-model', ASK_TIMEOUT_MS: '30000' },
    });
    server = await listen(testApp.app);
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await model.close();
    await database.drop();
  });

  it('caps the answer, hangs up on the model and ends the stream when the client reads again', async () => {
    const { port } = new URL(server.url);
    const body = JSON.stringify({ message: 'What is an escrow cushion?' });
    const { socket, state } = rawClient(
      Number(port),
      `POST /api/v1/ask HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    try {
      expect(await waitFor(() => state.received > 2048, 10_000)).toBe(true);
      socket.pause();
      // While the client is not reading, the service stops taking the model's output at the cap.
      expect(await waitFor(() => model.received() > 0 && model.closedByService() === model.received(), 10_000)).toBe(true);
      const sentWhenClosed = model.bytesSent();
      await sleep(500);
      expect(model.bytesSent()).toBe(sentWhenClosed);

      socket.resume();
      expect(await waitFor(() => state.ended, 10_000)).toBe(true);
      expect(state.tail).toContain('"type":"sources"');
      expect(state.tail).toMatch(/"type":"done"\}\n\n(\r\n0\r\n\r\n)?$/); // chunked encoding's last chunk
      expect(state.tail).toContain('cut at its maximum length');
      // What reached the client is the capped answer, not everything the model sent.
      expect(state.received).toBeLessThan(MAX_ANSWER_CHARS * 4);
    } finally {
      socket.destroy();
    }
  }, 40_000);
});
