// Server-sent events for /ask: one `data: <JSON>` line and a blank line per message. Writes wait
// for the socket to drain, so a slow client slows the answer down instead of growing a buffer, and
// a comment line every few seconds keeps proxies from closing a quiet stream.
import type { Response } from 'express';
import type { AskStreamMessage } from './types.ts';

export type StreamMessage = AskStreamMessage;

export interface SseStream {
  send(message: StreamMessage): Promise<void>;
  /** True once the client has gone away. */
  readonly closed: boolean;
  /** Aborted when the client disconnects: pass it to model calls so they stop. */
  readonly signal: AbortSignal;
  end(): void;
}

export function openSseStream(res: Response, { keepAliveMs = 10_000 }: { keepAliveMs?: number } = {}): SseStream {
  const controller = new AbortController();
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  // No explicit `Connection: keep-alive`: it would override a client's `Connection: close` and keep a
  // finished stream's socket open through a graceful shutdown (HTTP/1.1 keeps connections alive anyway).
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.socket?.setNoDelay(true);

  let closed = false;
  const onClose = () => {
    closed = true;
    clearInterval(keepAlive);
    controller.abort();
  };
  res.on('close', onClose);

  const write = (text: string): Promise<void> => {
    if (closed) return Promise.resolve();
    if (res.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  };

  const keepAlive = setInterval(() => {
    // Only when the socket is not backed up: a keep-alive must never add to a slow client's buffer.
    if (!closed && res.writableLength === 0) res.write(': keep-alive\n\n');
  }, keepAliveMs);
  keepAlive.unref();

  return {
    send: (message) => write(`data: ${JSON.stringify(message)}\n\n`),
    get closed() {
      return closed;
    },
    signal: controller.signal,
    end() {
      clearInterval(keepAlive);
      if (!closed) res.end();
    },
  };
}
