// Hostile requests against the real server process: oversized bodies (413), headers and URLs (431),
// and path traversal on the static site in every spelling (never a file outside dist/client). The
// server keeps serving after each.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { prefillDataDir } from '../support/pglite-templates.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { leaks } from '../fuzz/arbitraries.ts';

/** Sends bytes exactly as given (no URL normalisation) and returns status line, headers and body. */
function rawHttp(url: string, request: string | Buffer, timeoutMs = 15_000): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${String(request).slice(0, 100)}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: rest.join('\r\n\r\n') });
    };
    socket.on('end', finish);
    socket.on('close', finish);
    // The server may answer and close before it has read everything we send (413, 431).
    socket.on('error', () => undefined);
    socket.write(request);
  });
}

const get = (url: string, target: string) => rawHttp(url, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);

// Markers of files that must never be served: system files, the project's own files and secrets.
const FORBIDDEN = [
  /root:x:0:0/,
  /"name":\s*"mortgage-data-service"/,
  /\[core\]/,
  /DATABASE_URL=/,
  /BEGIN (RSA |OPENSSH )?PRIVATE KEY/,
  /\bexport function createApp\b/,
];

describe('hostile requests to the server process', () => {
  let server: ServerProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-hostile-'));

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    await prefillDataDir(dataDir); // a migrated database: no initdb in the server's process
    server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' });
    // A secret in the data folder, next to the database: it must stay unreachable.
    fs.writeFileSync(path.join(dataDir, 'probe-secret.txt'), 'DATABASE_URL=postgres://secret');
  }, 180_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const stillServing = async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
  };

  it.each([
    ['/api/v1/ask', 'application/json', JSON.stringify({ message: 'x'.repeat(200_000) })],
    [
      '/api/mcp',
      'application/json',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(2_000_000) } }),
    ],
    ['/account/keys', 'application/x-www-form-urlencoded', `name=${'x'.repeat(100_000)}`],
  ])('refuses an oversized body on %s with 413', async (target, type, body) => {
    const response = await rawHttp(
      server.url,
      `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(response.status).toBe(413);
    expect(leaks(response.body)).toBeUndefined();
    await stillServing();
  });

  it('refuses an oversized chunked body without reading it all', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Array.from({ length: 32 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const response = await rawHttp(
      server.url,
      `POST /api/v1/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`,
    );
    expect(response.status).toBe(413);
    await stillServing();
  });

  it('refuses oversized headers and an oversized URL with 431', async () => {
    const headers = await rawHttp(
      server.url,
      `GET /api/v1/rates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'x'.repeat(40_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(headers.status).toBe(431);
    const many = Array.from({ length: 2_000 }, (_, i) => `X-H${i}: ${'y'.repeat(20)}`).join('\r\n');
    const manyHeaders = await rawHttp(server.url, `GET /api/v1/rates HTTP/1.1\r\nHost: 127.0.0.1\r\n${many}\r\nConnection: close\r\n\r\n`);
    expect(manyHeaders.status).toBe(431);
    const url = await get(server.url, `/api/v1/rates?state=${'A'.repeat(40_000)}`);
    expect(url.status).toBe(431);
    await stillServing();
  });

  it.each([
    '/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/..%2f..%2fpackage.json',
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2e%2e/package.json',
    '/%2E%2E%2F%2E%2E%2Fpackage.json',
    '/..%5c..%5c..%5cetc%5cpasswd',
    '/%2e%2e%5c%2e%2e%5cpackage.json',
    '/..\\..\\package.json',
    '/_astro/..%2f..%2f..%2fpackage.json',
    '/_astro/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/glossary/..%252f..%252f..%252fpackage.json',
    '/%c0%ae%c0%ae/%c0%ae%c0%ae/package.json',
    '/..%c0%af..%c0%afpackage.json',
    '/%00/../../package.json',
    '/..;/..;/package.json',
    '/../../../../etc/passwd',
    '//etc/passwd',
    '/.env',
    '/.git/config',
    '/api/../package.json',
    '/dist/client/../../package.json',
    '/../.data/probe-secret.txt',
  ])('refuses the traversal %s', async (target) => {
    const response = await get(server.url, target);
    expect(response.status, `${target} → ${response.head.split('\r\n')[0]}`).toBeGreaterThanOrEqual(300);
    expect(response.status).toBeLessThan(500);
    for (const marker of FORBIDDEN) expect(response.body, target).not.toMatch(marker);
    expect(leaks(response.body)).toBeUndefined();
  });

  it('still serves the site and its assets after all of it', async () => {
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    const stylesheet = /href="(\/_astro\/[^"]+\.css)"/.exec(html)?.[1];
    expect(stylesheet).toBeDefined();
    expect((await fetch(`${server.url}${stylesheet}`)).status).toBe(200);
  });
});
