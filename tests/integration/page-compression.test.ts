// Pages the server renders are compressed as the built files are: a page kept per data version holds
// its br and gzip variants, each under an ETag of its own (304 to it), made once whatever encodings
// its readers ask for; a page rendered for one request (a query string) is compressed as it is sent;
// the sitemap, written once per data version, too. The Astro handler here is a stand-in that writes
// a long page of its own, so the test needs no site build.
import http from 'node:http';
import zlib from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

/** A page long enough to be worth compressing, different per URL. */
const pageFor = (url: string): string =>
  `<!doctype html><html><body><h1>${url}</h1>${'<p>County loan limits, one row per county. </p>'.repeat(2_000)}</body></html>`;

describe('compressed pages', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const renders: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const ssrHandler = (req: Request, res: Response, _next: NextFunction) => {
      renders.push(req.url);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(pageFor(req.url));
    };
    testApp = await buildTestApp(database.db, { options: { ssrHandler } });
    server = await listen(testApp.app);
  });
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  /** The raw answer (fetch would decode it): status, headers and the bytes as sent. */
  interface Raw {
    status: number;
    headers: { get(name: string): string | null };
    arrayBuffer(): Promise<Buffer>;
    text(): Promise<string>;
  }
  const get = (path: string, headers: Record<string, string> = {}): Promise<Raw> =>
    new Promise((resolve, reject) => {
      http
        .get(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'identity', ...headers } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const body = Buffer.concat(chunks);
            resolve({
              status: response.statusCode ?? 0,
              headers: { get: (name) => (response.headers[name.toLowerCase()] as string | undefined) ?? null },
              arrayBuffer: () => Promise.resolve(body),
              text: () => Promise.resolve(body.toString('utf8')),
            });
          });
        })
        .on('error', reject);
    });

  it('sends a page kept per data version in the encoding the reader accepts, each under its own ETag, rendered once', async () => {
    const plain = await get('/loan-limits');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const html = await plain.text();
    expect(html).toBe(pageFor('/loan-limits'));

    const br = await get('/loan-limits', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/Accept-Encoding/i);
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(html.length / 10);
    expect(zlib.brotliDecompressSync(brBytes).toString('utf8')).toBe(html);

    const gzip = await get('/loan-limits', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString('utf8')).toBe(html);

    // A strong ETag names exact bytes: one per encoding, and 304 to each.
    const tags = [plain, br, gzip].map((response) => response.headers.get('etag'));
    expect(new Set(tags).size).toBe(3);
    const again = await get('/loan-limits', { 'Accept-Encoding': 'br', 'If-None-Match': tags[1]! });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tags[1]);
    // The same bytes the second time: the kept variant, not a new compression.
    const second = await get('/loan-limits', { 'Accept-Encoding': 'br' });
    expect(Buffer.from(await second.arrayBuffer()).equals(brBytes)).toBe(true);
    expect(renders.filter((url) => url === '/loan-limits')).toHaveLength(1);
  });

  it('compresses a page rendered for one request (a query string) as it sends it', async () => {
    const response = await get('/loan-limits?state=CA', { 'Accept-Encoding': 'br' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(Buffer.from(await response.arrayBuffer())).toString('utf8')).toBe(pageFor('/loan-limits?state=CA'));
    const plain = await get('/loan-limits?state=CA');
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('compresses the sitemap, written once per data version', async () => {
    const plain = await get('/sitemap.xml');
    expect(plain.status).toBe(200);
    const xml = await plain.text();
    expect(xml).toContain('<urlset');
    expect(xml).toContain('/statistics</loc>');
    const gzip = await get('/sitemap.xml', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString('utf8')).toBe(xml);
    const tag = gzip.headers.get('etag')!;
    expect((await get('/sitemap.xml', { 'Accept-Encoding': 'gzip', 'If-None-Match': tag })).status).toBe(304);
  });
});
