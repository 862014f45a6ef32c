// The SSE writer of /ask: keep-alive comments while a stream is quiet, and an abort signal when the
// client goes away (the answerer passes it to the model call).
import http from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { openSseStream, type SseStream } from '../../api/ask/sse.ts';
import { listen } from '../support/app.ts';

describe('openSseStream', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function serve(onStream: (stream: SseStream) => void): Promise<string> {
    const app = express();
    app.get('/stream', (_req, res) => onStream(openSseStream(res, { keepAliveMs: 40 })));
    const server = await listen(app);
    close = server.close;
    return server.url;
  }

  it('sends keep-alive comments while no message is ready, then the messages', async () => {
    // The stream ends when the client has read two keep-alives, not after a fixed time: on a busy
    // machine a timer of the test and the writer's interval need not keep their order.
    let finish: (() => void) | undefined;
    const url = await serve((stream) => {
      finish = () => void stream.send({ type: 'done' }).then(() => stream.end());
    });
    const response = await fetch(`${url}/stream`);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk, { stream: true });
      if ((text.match(/^: keep-alive$/gm)?.length ?? 0) >= 2) finish?.();
    }
    expect(text.match(/^: keep-alive$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain('data: {"type":"done"}\n\n');
  });

  it('aborts its signal when the client disconnects', async () => {
    let aborted: Promise<void> | undefined;
    const url = await serve((stream) => {
      aborted = new Promise((resolve) => stream.signal.addEventListener('abort', () => resolve(), { once: true }));
    });
    await new Promise<void>((resolve) => {
      const request = http.get(`${url}/stream`, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
    });
    await expect(aborted).resolves.toBeUndefined();
  });
});
