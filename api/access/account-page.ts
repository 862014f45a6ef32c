// Server-rendered HTML of the /account page (it depends on who is signed in, so it cannot be a
// static page). It wears the site's frame (navigation and footer from site-info/site-frame.ts) and
// the site's own stylesheet, inlined with the few account rules and allowed by its hash in the
// page's Content-Security-Policy, which otherwise permits nothing but this origin. Every
// interpolated value is escaped.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, type Config } from '../config.ts';
import { siteFooterHtml, siteHeaderHtml } from '../site-info/site-frame.ts';
import type { KeyRecord } from './key-store.ts';
import { MAX_ACTIVE_KEYS } from './key-store.ts';
import { rateLimitPhrases, type LimitConfig } from '../platform/rate-limit-text.ts';

const SITE_STYLESHEET = path.join(PROJECT_ROOT, 'site', 'styles', 'global.css');

const ACCOUNT_RULES = `.notice{border:1px solid var(--line);border-left:4px solid var(--accent);background:var(--surface);padding:.75rem 1rem;margin:1rem 0}
.error{border-left-color:#b42318}.newkey code{display:block;font-size:1.05em;padding:.5rem;background:#fff;border:1px solid var(--line);word-break:break-all;user-select:all}
.button{font:inherit;padding:.35rem .9rem;border:1px solid var(--accent);border-radius:6px;background:var(--accent);color:#fff;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:var(--accent)}form.inline{display:inline}`;

const STYLE = `${fs.existsSync(SITE_STYLESHEET) ? fs.readFileSync(SITE_STYLESHEET, 'utf8') : ''}\n${ACCOUNT_RULES}`;

/** CSP for the account pages: the inline stylesheet by hash, forms only to this origin, no framing. */
export const ACCOUNT_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const date = (value: Date | null) => (value === null ? '—' : `${value.toISOString().slice(0, 16).replace('T', ' ')} UTC`);

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Mortgage Data Service</title><style>${STYLE}</style></head>
<body>${siteHeaderHtml('/account')}<main id="main">
<h1>${escapeHtml(title)}</h1>
${body}
</main>${siteFooterHtml('/account')}</body></html>`;
}

type PageConfig = Pick<Config, 'baseUrl'> & LimitConfig;

function usage(config: PageConfig): string {
  const limits = rateLimitPhrases(config);
  return `<h2>Using a key</h2>
<p>Send the key with any request, in one of four ways:</p>
<ul><li>header <code>X-API-Key: &lt;key&gt;</code></li><li>header <code>Authorization: Bearer &lt;key&gt;</code></li>
<li>query parameter <code>api_key=&lt;key&gt;</code></li><li>query parameter <code>secret=&lt;key&gt;</code></li></ul>
<p class="muted">Without a key: ${limits.anonymous}. With a key: ${limits.withKey}. Either way: ${limits.hourly}.
Details in the <a href="${escapeHtml(config.baseUrl)}/docs/api">API documentation</a>.</p>`;
}

/** SUPPORT_CONTACT as a link: an email address as mailto, a URL as itself, anything else as text. */
function contactHtml(contact: string): string {
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact)) return `<a href="mailto:${escapeHtml(contact)}">${escapeHtml(contact)}</a>`;
  if (/^https?:\/\//.test(contact)) return `<a href="${escapeHtml(contact)}">${escapeHtml(contact)}</a>`;
  return escapeHtml(contact);
}

/** What works without a key: the reader is never left with nothing to do. */
const WITHOUT_A_KEY = `<p>Without a key you can already use every data endpoint of the <a href="/docs/api">REST API</a>, the MCP
server and the <code>/ask</code> endpoint, within the anonymous limits below; only the MCP tool <code>query_hmda</code>
(HMDA loan records) needs a key.</p>`;

export function supportPage(config: PageConfig & Pick<Config, 'SUPPORT_CONTACT'>): string {
  const request =
    config.SUPPORT_CONTACT === undefined
      ? `<p>Keys are free, but this installation has neither sign-in nor a contact for key requests, so it cannot issue
you a key on this page.</p>
${WITHOUT_A_KEY}
<p>For a key of your own, run your own copy: the Mortgage Data Service is open source and self-hostable, and whoever runs
a copy issues its keys (its README says how).</p>`
      : `<p>Keys are free. Sign-in is not set up on this installation, so keys are issued on request: write to
${contactHtml(config.SUPPORT_CONTACT)} with the email address the key should belong to. The key is sent to you once; keep it
safe, since it cannot be shown again.</p>
${WITHOUT_A_KEY}`;
  return layout('API keys', `${request}\n${usage(config)}`);
}

export function signInPage(config: PageConfig): string {
  return layout(
    'API keys',
    `<p>Keys are free. Sign in to create up to ${MAX_ACTIVE_KEYS} of them, see when each was last used, and revoke them.</p>
<p><a class="button" href="/auth/login">Sign in</a></p>
${usage(config)}`,
  );
}

export interface AccountView {
  email: string | null;
  csrfToken: string;
  keys: KeyRecord[];
  newKey?: { key: string; prefix: string };
  message?: { text: string; error: boolean };
}

export function accountPage(config: PageConfig, view: AccountView): string {
  const csrf = `<input type="hidden" name="_csrf" value="${escapeHtml(view.csrfToken)}">`;
  const active = view.keys.filter((key) => key.status === 'active').length;
  const rows = view.keys
    .map(
      (key) => `<tr data-prefix="${escapeHtml(key.prefix)}"><td data-label="Key"><code>${escapeHtml(key.prefix)}…</code></td><td data-label="Name">${escapeHtml(key.name || '—')}</td>
<td data-label="Created">${date(key.createdAt)}</td><td data-label="Last used">${date(key.lastUsedAt)}</td><td data-label="Status">${key.status === 'active' ? 'active' : `revoked ${date(key.revokedAt)}`}</td>
<td>${
        key.status === 'active'
          ? `<form class="inline" method="post" action="/account/keys/revoke">${csrf}<input type="hidden" name="prefix" value="${escapeHtml(key.prefix)}"><button class="secondary" type="submit" aria-label="Revoke ${escapeHtml(key.prefix)}">Revoke</button></form>`
          : ''
      }</td></tr>`,
    )
    .join('\n');
  const newKey = view.newKey
    ? `<div class="notice newkey" role="status"><p><strong>Your new key.</strong> Copy it now: it is shown only this once and cannot be recovered.</p>
<code id="new-key">${escapeHtml(view.newKey.key)}</code></div>`
    : '';
  const message = view.message
    ? `<div class="notice${view.message.error ? ' error' : ''}" role="${view.message.error ? 'alert' : 'status'}">${escapeHtml(view.message.text)}</div>`
    : '';
  return layout(
    'Your API keys',
    `<p>Signed in${view.email === null ? '' : ` as <strong>${escapeHtml(view.email)}</strong>`}.
<form class="inline" method="post" action="/auth/logout">${csrf}<button class="secondary" type="submit">Sign out</button></form></p>
${message}${newKey}
<p>${active} of ${MAX_ACTIVE_KEYS} active keys.</p>
${view.keys.length === 0 ? '<p class="muted">No keys yet.</p>' : `<div class="table-scroll" role="region" tabindex="0" aria-labelledby="table-1-caption"><table class="cards"><caption id="table-1-caption">Your keys</caption><thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`}
<h2>Create a key</h2>
<form method="post" action="/account/keys">${csrf}<label for="key-name">Name (optional)</label>
<input type="text" id="key-name" name="name" maxlength="60" placeholder="e.g. my laptop"> <button type="submit">Create key</button></form>
${usage(config)}`,
  );
}

export function errorPage(status: number, message: string): string {
  return layout(status === 403 ? 'Not allowed' : 'Something went wrong', `<div class="notice error" role="alert">${escapeHtml(message)}</div>
<p><a href="/account">Back to your API keys</a></p>`);
}
