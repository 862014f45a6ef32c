// The in-memory static site (api/platform/static): which encoding a client gets (the plain bytes
// until the background compression has run), ETags and 304s, HEAD, clean URLs, files put at run
// time, the running address written over the build's placeholder, and paths it does not know going
// on to the next handler.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaticSite } from '../../api/platform/static/static-site.ts';
import { serveStaticSite } from '../../api/platform/static/serve.ts';
import { acceptedEncodings } from '../../api/platform/static/compression.ts';
import { BUILD_API_HOST_ORIGIN, BUILD_ORIGIN } from '../../api/platform/static/build-origin.ts';
import { listen } from '../support/app.ts';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with exactly the headers given (fetch would add Accept-Encoding and decode bodies). */
function request(base: string, target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${target}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title><link rel="canonical" href="${BUILD_ORIGIN}/glossary/apr"></head><body>${'<p>Annual percentage rate. </p>'.repeat(40)}</body></html>`;

describe('the in-memory static site', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-static-'));
  let site: StaticSite;
  let server: Awaited<ReturnType<typeof listen>>;
  /** A br request answered before compressPending() ran. */
  let beforeCompression: RawResponse;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, 'glossary', 'apr'), { recursive: true });
    fs.mkdirSync(path.join(dir, '_astro'));
    fs.writeFileSync(path.join(dir, 'index.html'), page('Home'));
    fs.writeFileSync(path.join(dir, 'glossary', 'apr', 'index.html'), page('APR'));
    fs.writeFileSync(path.join(dir, '_astro', 'Base.abc123.css'), `body { color: #123; }\n${'.x { margin: 0 }\n'.repeat(40)}`);
    fs.writeFileSync(path.join(dir, 'robots.txt'), `User-agent: *\nSitemap: ${BUILD_ORIGIN}/sitemap.xml\n`);
    fs.writeFileSync(path.join(dir, 'llms.txt'), `- API host: ${BUILD_API_HOST_ORIGIN}/rates\n- Site: ${BUILD_ORIGIN}/docs/api\n`);
    fs.writeFileSync(
      path.join(dir, 'logo.png'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, ...new Array<number>(300).fill(7)]),
    );
    site = StaticSite.load(dir, { baseUrl: 'https://example.org', API_HOST: 'api.example.org' });
    const app = express();
    app.use(serveStaticSite(site));
    app.use((_req, res) => res.status(418).send('next handler'));
    server = await listen(app);
    beforeCompression = await request(server.url, '/glossary/apr', { 'Accept-Encoding': 'br' });
    await site.compressPending();
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the files it read as they are, with Vary, until their variants are made', async () => {
    expect(beforeCompression.status).toBe(200);
    expect(beforeCompression.headers['content-encoding']).toBeUndefined();
    expect(beforeCompression.headers.vary).toBe('Accept-Encoding');
    expect(beforeCompression.body.toString()).toContain('<title>APR</title>');
    expect(beforeCompression.headers.etag).not.toMatch(/-br"$/);
  });

  it('sends br, gzip or the plain bytes as Accept-Encoding asks, with Vary', async () => {
    const plain = await request(server.url, '/glossary/apr');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = plain.body.toString();
    expect(html).toContain('<title>APR</title>');

    const br = await request(server.url, '/glossary/apr', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(html);

    const gzip = await request(server.url, '/glossary/apr', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(html);

    // q-values: br refused, gzip preferred over nothing; everything refused but identity.
    expect((await request(server.url, '/glossary/apr', { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' })).headers['content-encoding']).toBe(
      'gzip',
    );
    expect((await request(server.url, '/glossary/apr', { 'Accept-Encoding': 'gzip;q=0.4, br;q=0.9' })).headers['content-encoding']).toBe(
      'br',
    );
    expect(
      (await request(server.url, '/glossary/apr', { 'Accept-Encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding'],
    ).toBeUndefined();
    expect((await request(server.url, '/glossary/apr', { 'Accept-Encoding': '*' })).headers['content-encoding']).toBe('br');
  });

  it('parses Accept-Encoding by q-value, br first at equal weight', () => {
    expect(acceptedEncodings(undefined)).toEqual(['identity']);
    expect(acceptedEncodings('gzip, br')).toEqual(['br', 'gzip', 'identity']);
    expect(acceptedEncodings('br;q=0.1, gzip')).toEqual(['gzip', 'br', 'identity']);
    expect(acceptedEncodings('deflate')).toEqual(['identity']);
    expect(acceptedEncodings('*;q=0.5, gzip;q=0')).toEqual(['br', 'identity']);
  });

  it('does not compress images or small files', async () => {
    const png = await request(server.url, '/logo.png', { 'Accept-Encoding': 'br, gzip' });
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    const robots = await request(server.url, '/robots.txt', { 'Accept-Encoding': 'br, gzip' });
    expect(robots.headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 to If-None-Match naming the variant it would send, and 200 otherwise', async () => {
    const first = await request(server.url, '/glossary/apr/', { 'Accept-Encoding': 'br' });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+-br"$/);
    const again = await request(server.url, '/glossary/apr/', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=300');
    expect((await request(server.url, '/glossary/apr/', { 'Accept-Encoding': 'br', 'If-None-Match': `"other", W/${etag}` })).status).toBe(
      304,
    );
    expect((await request(server.url, '/glossary/apr/', { 'If-None-Match': '*' })).status).toBe(304);
    // The plain bytes are another representation: the br ETag does not validate them.
    const plain = await request(server.url, '/glossary/apr/', { 'If-None-Match': etag });
    expect(plain.status).toBe(200);
    expect(plain.headers.etag).not.toBe(etag);
    expect(plain.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('serves a page at its clean URL, with and without the slash, and as index.html', async () => {
    const bodies = await Promise.all(
      ['/glossary/apr', '/glossary/apr/', '/glossary/apr/index.html'].map((target) => request(server.url, target)),
    );
    for (const response of bodies) {
      expect(response.status).toBe(200);
      expect(response.body.toString()).toContain('<title>APR</title>');
    }
    expect((await request(server.url, '/')).body.toString()).toContain('<title>Home</title>');
    // A query string does not change the file.
    expect((await request(server.url, '/glossary/apr?utm=x')).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await request(server.url, '/glossary/apr', { 'Accept-Encoding': 'gzip' });
    const head = await request(server.url, '/glossary/apr', { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it('caches fingerprinted /_astro files for good and pages briefly', async () => {
    const css = await request(server.url, '/_astro/Base.abc123.css');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await request(server.url, '/')).headers['cache-control']).toBe('public, max-age=300');
  });

  it('writes the running addresses over the build placeholder', async () => {
    const html = (await request(server.url, '/glossary/apr')).body.toString();
    expect(html).toContain('<link rel="canonical" href="https://example.org/glossary/apr">');
    expect((await request(server.url, '/robots.txt')).body.toString()).toContain('Sitemap: https://example.org/sitemap.xml');
    const llms = (await request(server.url, '/llms.txt')).body.toString();
    expect(llms).toBe('- API host: https://api.example.org/rates\n- Site: https://example.org/docs/api\n');
  });

  it('passes unknown paths and other methods to the next handler', async () => {
    for (const target of ['/nope', '/glossary/apr/extra', '/glossary', '/_astro/missing.css', '/%E0%A4%A']) {
      const response = await request(server.url, target);
      expect(response.status, target).toBe(418);
    }
    expect((await request(server.url, '/glossary/apr', {}, 'POST')).status).toBe(418);
  });

  it('adds and replaces files while it runs', async () => {
    site.put('/data/rates.json', '{"rate":6.1}', 'application/json; charset=utf-8', { cacheControl: 'public, max-age=60' });
    const added = await request(server.url, '/data/rates.json');
    expect(added.status).toBe(200);
    expect(added.body.toString()).toBe('{"rate":6.1}');
    expect(added.headers['cache-control']).toBe('public, max-age=60');
    const before = (await request(server.url, '/glossary/apr')).headers.etag;
    site.put('/glossary/apr/index.html', page('APR, revised'), 'text/html; charset=utf-8');
    const replaced = await request(server.url, '/glossary/apr');
    expect(replaced.body.toString()).toContain('<title>APR, revised</title>');
    expect(replaced.headers.etag).not.toBe(before);
    expect(() => site.put('relative.txt', 'x', 'text/plain')).toThrow(/starts with \//);
  });
});
