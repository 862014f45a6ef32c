// A real HTTPS endpoint for webhook tests: a local server with the self-signed certificate of
// tests/fixtures/webhook-tls (trusted by the service under test through WEBHOOK_CA_FILE). It keeps
// every request it gets and answers as the test says: a status, or never (to hold a delivery open).
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';

export const TEST_CA_FILE = path.join(PROJECT_ROOT, 'tests', 'fixtures', 'webhook-tls', 'cert.pem');

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface HttpsEndpoint {
  url: string;
  received: ReceivedRequest[];
  /** Requests received and not answered (the endpoint told to hang). */
  readonly open: number;
  /** How the next requests are answered: a status, or 'hang' (never). */
  answer: number | 'hang';
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHttpsEndpoint(): Promise<HttpsEndpoint> {
  const dir = path.dirname(TEST_CA_FILE);
  const received: ReceivedRequest[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const waiters: (() => boolean)[] = [];
  const endpoint = {
    url: '',
    received,
    answer: 204 as number | 'hang',
    get open() {
      return hanging.size;
    },
    waitFor(count: number, timeoutMs = 30_000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${received.length} of ${count} requests arrived within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          if (received.length < count) return false;
          clearTimeout(timer);
          resolve();
          return true;
        };
        waiters.push(check);
      });
    },
    close: (): Promise<void> => Promise.resolve(),
  };
  const server = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(TEST_CA_FILE) },
    (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body });
        for (const waiter of waiters.splice(0)) if (!waiter()) waiters.push(waiter);
        if (endpoint.answer === 'hang') {
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        }
        res.statusCode = endpoint.answer;
        res.end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return endpoint;
}
