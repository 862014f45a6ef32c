// Helmet's security headers on the site's pages, checked against what the built HTML actually needs
// (no inline scripts, every file from our own origin), while API responses keep exactly the CORS
// headers of the API conventions and none of the headers that would stop a cross-origin fetch.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { DIST_CLIENT, ensureSiteBuiltForTests } from '../support/site-build.ts';
import { CORS_HEADERS } from '../../api/platform/http/cors.ts';
import { ACCOUNT_CSP } from '../../api/access/account-view.ts';

// Headers that must never reach an API response (they would break or restrict cross-origin use).
const SITE_ONLY = [
  'content-security-policy',
  'cross-origin-resource-policy',
  'cross-origin-opener-policy',
  'cross-origin-embedder-policy',
  'origin-agent-cluster',
  'x-frame-options',
  'strict-transport-security',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
];

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function htmlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('security headers', () => {
  let database: TestDatabase;
  let plain: TestApp;
  let secure: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let secureServer: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await createTestDatabase('pglite');
    plain = await buildTestApp(database.db);
    secure = await buildTestApp(database.db, { env: { BASE_URL: 'https://mortgage.example' } });
    server = await listen(plain.app);
    secureServer = await listen(secure.app);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await secureServer?.close();
    await plain?.close();
    await secure?.close();
    await database?.drop();
  });

  it('puts a strict policy and the helmet headers on pages, the 404 page and site files', async () => {
    for (const target of ['/', '/glossary/escrow', '/no-such-page', '/llms.txt']) {
      const response = await fetch(`${server.url}${target}`);
      await response.arrayBuffer();
      const csp = response.headers.get('content-security-policy');
      expect(csp, target).toBeTruthy();
      const policy = directives(csp!);
      expect(policy.get('script-src'), target).toEqual(["'self'"]);
      expect(policy.get('script-src-attr'), target).toEqual(["'none'"]);
      expect(policy.get('object-src'), target).toEqual(["'none'"]);
      expect(policy.get('default-src'), target).toEqual(["'self'"]);
      expect(policy.get('frame-ancestors'), target).toEqual(["'self'"]);
      expect(policy.has('upgrade-insecure-requests'), target).toBe(false); // plain-http base URL
      expect(response.headers.get('x-content-type-options'), target).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), target).toBe('SAMEORIGIN');
      expect(response.headers.get('referrer-policy'), target).toBe('strict-origin-when-cross-origin');
      // Public pages and files may be read from anywhere.
      expect(response.headers.get('cross-origin-resource-policy'), target).toBe('cross-origin');
      expect(response.headers.get('strict-transport-security'), target).toBeNull();
      expect(response.headers.get('x-powered-by'), target).toBeNull();
    }
  });

  it('adds HSTS and upgrade-insecure-requests only behind an https base URL', async () => {
    const response = await fetch(`${secureServer.url}/`);
    await response.arrayBuffer();
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(directives(response.headers.get('content-security-policy')!).has('upgrade-insecure-requests')).toBe(true);
  });

  it('matches the built site: no inline scripts or handlers, inline styles only where allowed, nothing from other origins', async () => {
    const response = await fetch(`${server.url}/`);
    await response.arrayBuffer();
    const policy = directives(response.headers.get('content-security-policy')!);
    const files = htmlFiles(DIST_CLIENT);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const html = fs.readFileSync(file, 'utf8');
      const relative = path.relative(DIST_CLIENT, file);
      for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
        // JSON-LD is data the browser never runs; any other script must be a same-origin file.
        if (/type="application\/ld\+json"/i.test(tag)) continue;
        expect(tag, relative).toMatch(/\bsrc="\/(?!\/)/);
      }
      expect(html, relative).not.toMatch(/\son[a-z]+\s*=\s*["']/i);
      expect(html, relative).not.toMatch(/(href|src)="javascript:/i);
      if (/<style\b|\sstyle="/i.test(html)) expect(policy.get('style-src'), relative).toContain("'unsafe-inline'");
      // Stylesheets, scripts, images, fonts and frames load from our own origin only.
      for (const match of html.matchAll(/<(link|script|img|iframe|source|video|audio)\b[^>]*\b(?:src|href)="([^"]+)"[^>]*>/gi)) {
        const [tag, element, url] = match;
        if (element!.toLowerCase() === 'link' && !/rel="(stylesheet|preload|icon|modulepreload|manifest)"/i.test(tag)) continue;
        expect(url, `${relative}: ${tag}`).toMatch(/^(\/(?!\/)|data:|[^:]+$)/);
      }
    }
  });

  it('leaves API responses with exactly the spec CORS headers and none of the site headers', async () => {
    const checks: { label: string; headers: Record<string, string | string[] | undefined> }[] = [];
    const grab = async (label: string, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) => {
      const response = await rawRequest(url, init);
      checks.push({ label, headers: response.headers });
      return response;
    };
    await grab('openapi', `${server.url}/api/v1/openapi.json`);
    await grab('rates', `${server.url}/api/v1/rates`);
    await grab('unknown API path', `${server.url}/api/v1/no-such-thing`);
    await grab('preflight', `${server.url}/api/v1/rates`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
    });
    await grab('API host', `${server.url}/healthz`, { headers: { Host: 'api.localhost' } });
    await grab('API host data', `${server.url}/rates`, { headers: { Host: 'api.localhost', Origin: 'https://elsewhere.example' } });
    for (const { label, headers } of checks) {
      expect(headers['access-control-allow-origin'], label).toBe(CORS_HEADERS['Access-Control-Allow-Origin']);
      expect(headers['access-control-allow-headers'], label).toBe(CORS_HEADERS['Access-Control-Allow-Headers']);
      expect(headers['access-control-max-age'], label).toBe(CORS_HEADERS['Access-Control-Max-Age']);
      expect(headers['access-control-allow-methods'], label).toMatch(/^GET, OPTIONS(, POST)?$|^POST, OPTIONS$|^GET, POST, OPTIONS$/);
      for (const name of SITE_ONLY) expect(headers[name], `${label}: ${name}`).toBeUndefined();
    }
    const mcp = await rawRequest(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    for (const name of SITE_ONLY) expect(mcp.headers[name], `mcp: ${name}`).toBeUndefined();
  });

  it('keeps the account page on its own stricter policy', async () => {
    const response = await fetch(`${server.url}/account`);
    await response.arrayBuffer();
    expect(response.headers.get('content-security-policy')).toBe(ACCOUNT_CSP);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });
});
