// Sign-in end to end: a real OpenID provider (oidc-provider, on a local port) and Chromium sign in,
// create 3 keys on /account, are refused a 4th, revoke one, and the revoked key gets 401 at once.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// oidc-provider ships no type declarations; its configuration is documented in its README.
// @ts-expect-error -- untyped module
import Provider from 'oidc-provider';
import { chromium, type Browser, type Page } from 'playwright-core';
import { pingRoute } from '../support/ping-route.ts';
import { buildTestApp, testConfig, type TestApp } from '../support/app.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { loadSsrHandler } from '../../api/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

async function listenOn(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe.skipIf(!fs.existsSync(CHROMIUM))('signing in and managing keys on /account', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  const appServer = http.createServer();
  const providerServer = http.createServer();
  let appUrl: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    appUrl = await listenOn(appServer);
    const issuer = await listenOn(providerServer);
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'mds-test',
          client_secret: 'mds-test-secret',
          redirect_uris: [`${appUrl}/auth/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      findAccount: (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: () => ({ sub: id, email: `${id}@example.org`, email_verified: true }),
      }),
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['provider-cookie-key-for-tests'] },
    });
    providerServer.on('request', provider.callback());

    database = await createTestDatabase('pglite');
    await ensureSiteBuiltForTests();
    const ssrHandler = await loadSsrHandler(testConfig());
    testApp = await buildTestApp(database.db, {
      env: {
        BASE_URL: appUrl,
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: 'mds-test',
        OIDC_CLIENT_SECRET: 'mds-test-secret',
        SESSION_SECRET: 'session-secret-for-tests',
      },
      // /account is an Astro page: the app draws it with the built site's handler.
      options: { extraApiRoutes: pingRoute, ...(ssrHandler ? { ssrHandler } : {}) },
    });
    appServer.on('request', testApp.app);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer(appServer);
    await closeServer(providerServer);
    await testApp?.close();
    await database?.drop();
  });

  it('signs in through the provider and lands on the account page', async () => {
    await page.goto(`${appUrl}/account`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.href.startsWith(appUrl));
    await page.fill('input[name=login]', 'ada');
    await page.fill('input[name=password]', 'any password');
    await page.click('button[type=submit]');
    // devInteractions then asks for consent to share the email scope.
    await page.waitForSelector('button[type=submit]');
    if (!page.url().startsWith(appUrl)) await page.click('button[type=submit]');
    await page.waitForURL(`${appUrl}/account`);
    expect(await page.locator('main').textContent()).toContain('Signed in as ada@example.org');

    const cookie = (await page.context().cookies(appUrl)).find((entry) => entry.name === 'mds_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('creates three keys, each shown once, and refuses a fourth with a clear message', async () => {
    const keys: string[] = [];
    for (const name of ['laptop', 'server', 'notebook']) {
      await page.fill('#key-name', name);
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.locator('#new-key').textContent())?.trim() ?? '';
      expect(key).toMatch(/^mds_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
      keys.push(key);
    }
    await page.goto(`${appUrl}/account`);
    expect(await page.locator('#new-key').count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('3 of 3 active keys');
    expect(await page.content()).not.toContain(keys[0]!.slice(13));

    await page.fill('#key-name', 'one too many');
    const [response] = await Promise.all([
      page.waitForResponse(`${appUrl}/account/keys`),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    expect(response.status()).toBe(409);
    expect(await page.getByRole('alert').textContent()).toContain(
      'already has 3 active keys, the most allowed. Revoke one to create another.',
    );
    expect(await page.locator('#new-key').count()).toBe(0);

    for (const key of keys) {
      expect((await rawRequest(`${appUrl}/api/v1/test-ping`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    }

    // Revoke the second key: it stops working on the very next API call; the others keep working.
    const revokedPrefix = keys[1]!.slice(0, 12);
    await page.getByRole('button', { name: `Revoke ${revokedPrefix}` }).click();
    expect(await page.getByRole('status').textContent()).toContain(`Key ${revokedPrefix}… is revoked`);
    expect(await page.locator(`tr[data-prefix="${revokedPrefix}"]`).textContent()).toContain('revoked');
    const refused = await rawRequest(`${appUrl}/api/v1/test-ping`, { headers: { Authorization: `Bearer ${keys[1]}` } });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toEqual({ error: expect.stringContaining('revoked'), status: 401 });
    expect((await rawRequest(`${appUrl}/api/v1/test-ping?api_key=${keys[0]}`)).status).toBe(200);

    // With one revoked, a new key may be created again.
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.locator('#new-key').count()).toBe(1);
  });

  it('refuses a callback that this browser did not start', async () => {
    const response = await rawRequest(`${appUrl}/auth/callback?code=stolen&state=guess`);
    expect(response.status).toBe(400);
    expect(response.body).toContain('Start again from /account');
    expect(response.headers['set-cookie']?.some((cookie) => cookie.startsWith('mds_session='))).toBeFalsy();
  });

  it('refuses a form post without the CSRF token', async () => {
    const cookies = await page.context().cookies(appUrl);
    const header = cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
    const forged = await rawRequest(`${appUrl}/account/keys`, {
      method: 'POST',
      headers: { Cookie: header, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=forged',
    });
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('did not come from this site');
    const wrongToken = await rawRequest(`${appUrl}/account/keys/revoke`, {
      method: 'POST',
      headers: { Cookie: header, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'prefix=mds_AAAAAAAA&_csrf=guess',
    });
    expect(wrongToken.status).toBe(403);
  });

  it('signs out, after which the session cookie no longer opens the account', async () => {
    const cookies = await page.context().cookies(appUrl);
    const header = cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${appUrl}/account`);
    expect(await page.getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true);
    const replayed = await rawRequest(`${appUrl}/account`, { headers: { Cookie: header } });
    expect(replayed.body).not.toContain('Signed in as');
  });
});
