// The /account page without sign-in, as the Astro page draws it through the app: the site frame,
// how to get a key with and without a support contact (never a dead end, no operator commands, the
// contact escaped), the running rate limits, and a Content-Security-Policy that allows the site's own
// stylesheet and nothing inline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSsrHandler } from '../../api/server.ts';
import { ACCOUNT_CSP } from '../../api/access/account-view.ts';
import { SITE_NAV } from '../../api/site-info/site-frame.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';

describe('the /account page', () => {
  let database: TestDatabase;
  const apps: { app: TestApp; server: Awaited<ReturnType<typeof listen>> }[] = [];

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await createTestDatabase('pglite');
  }, 600_000);

  afterAll(async () => {
    for (const { app, server } of apps) {
      await server.close();
      await app.close();
    }
    await database?.drop();
  });

  async function accountPage(env: Record<string, string> = {}): Promise<{ status: number; csp: string | null; html: string }> {
    const ssrHandler = await loadSsrHandler(testConfig());
    const app = await buildTestApp(database.db, {
      env: { RATE_LIMIT_ANON_PER_MINUTE: '20', RATE_LIMIT_KEY_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '0', ...env },
      options: ssrHandler ? { ssrHandler } : {},
    });
    const server = await listen(app.app);
    apps.push({ app, server });
    const response = await fetch(`${server.url}/account`);
    return { status: response.status, csp: response.headers.get('content-security-policy'), html: await response.text() };
  }

  it('wears the site navigation and footer, and says what a reader can do without a contact', async () => {
    const { status, html } = await accountPage();
    expect(status).toBe(200);
    for (const item of SITE_NAV) expect(html).toContain(`<a href="${item.href}">${item.label}</a>`);
    expect(html).toContain('<a class="skip-link" href="#main">Skip to content</a>');
    expect(html).toContain('<a href="/account" aria-current="page">API keys</a>');
    expect(html).toContain('cannot issue you a key on this page');
    expect(html).toContain('Without a key you can already use every data endpoint');
    expect(html).toContain('run your own copy');
    expect(html).not.toContain('npm run');
    expect(html).toContain('<meta name="robots" content="noindex">');
  });

  it('names the support contact as a link when there is one, and escapes it otherwise', async () => {
    expect((await accountPage({ SUPPORT_CONTACT: 'keys@mds.example' })).html).toContain(
      '<a href="mailto:keys@mds.example">keys@mds.example</a>',
    );
    expect((await accountPage({ SUPPORT_CONTACT: 'https://mds.example/help' })).html).toContain(
      '<a href="https://mds.example/help">https://mds.example/help</a>',
    );
    const odd = (await accountPage({ SUPPORT_CONTACT: 'the front desk <b>' })).html;
    expect(odd).toContain('the front desk &lt;b&gt;');
    expect(odd).not.toContain('<b>');
  });

  it('states the running rate limits, and "no limit" where one is off', async () => {
    const { html } = await accountPage();
    expect(html).toContain(
      'Without a key: 20 requests per minute per IP. With a key: 100 requests per minute per key. Either way: no limit per hour per key or IP.',
    );
  });

  it("allows only the site's own stylesheet in its Content-Security-Policy, and needs nothing inline", async () => {
    const { csp, html } = await accountPage();
    expect(csp).toBe(ACCOUNT_CSP);
    expect(html).not.toMatch(/<style[\s>]|<script[\s>]|\sstyle="/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/_astro\/[^"]+\.css"/);
  });
});
