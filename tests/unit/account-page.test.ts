// The /account page without sign-in: the site frame, how to get a key with and without a support
// contact (never a dead end, no operator commands), and a CSP that allows exactly its stylesheet.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_CSP, accountPage, supportPage } from '../../api/access/account-page.ts';
import { SITE_NAV } from '../../api/site-info/site-frame.ts';

const base = { baseUrl: 'https://mds.example', RATE_LIMIT_ANON_PER_MINUTE: 20, RATE_LIMIT_KEY_PER_MINUTE: 100, RATE_LIMIT_PER_HOUR: 0 };

describe('the /account page', () => {
  it('wears the site navigation and footer', () => {
    const html = supportPage({ ...base, SUPPORT_CONTACT: undefined });
    for (const item of SITE_NAV) expect(html).toContain(`<a href="${item.href}">${item.label}</a>`);
    expect(html).toContain('<a class="skip-link" href="#main">Skip to content</a>');
    expect(html).toContain('<a href="/account" aria-current="page">API keys</a>');
  });

  it('names the support contact as a link when there is one', () => {
    expect(supportPage({ ...base, SUPPORT_CONTACT: 'keys@mds.example' })).toContain('write to\n<a href="mailto:keys@mds.example">keys@mds.example</a>');
    expect(supportPage({ ...base, SUPPORT_CONTACT: 'https://mds.example/help' })).toContain('<a href="https://mds.example/help">https://mds.example/help</a>');
    expect(supportPage({ ...base, SUPPORT_CONTACT: 'the front desk <b>' })).toContain('the front desk &#60;b&#62;');
  });

  it('without a contact says what the reader can do instead, and no operator command', () => {
    const html = supportPage({ ...base, SUPPORT_CONTACT: undefined });
    expect(html).toContain('cannot issue\nyou a key on this page');
    expect(html).toContain('Without a key you can already use every data endpoint');
    expect(html).toContain('run your own copy');
    expect(html).not.toContain('npm run');
  });

  it('puts the keys table in a named scroll box', () => {
    const html = accountPage(base, {
      email: 'ada@example.org',
      csrfToken: 't',
      keys: [{ prefix: 'mds_Ab12Cd34', name: 'laptop', status: 'active', createdAt: new Date('2026-11-01T00:00:00Z'), lastUsedAt: null, revokedAt: null } as never],
    });
    expect(html).toContain('<div class="table-scroll" role="region" tabindex="0" aria-labelledby="table-1-caption"><table class="cards"><caption id="table-1-caption">Your keys</caption>');
  });

  it('states the running rate limits, and "no limit" where one is off', () => {
    const html = supportPage({ ...base, SUPPORT_CONTACT: undefined });
    expect(html).toContain('Without a key: 20 requests per minute per IP. With a key: 100 requests per minute per key. Either way: no limit per hour per key or IP.');
  });

  it("allows exactly the page's inline stylesheet in its Content-Security-Policy", () => {
    const style = /<style>([\s\S]*?)<\/style>/.exec(supportPage({ ...base, SUPPORT_CONTACT: undefined }))?.[1] ?? '';
    expect(style).toContain('.table-scroll');
    expect(ACCOUNT_CSP).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });
});
