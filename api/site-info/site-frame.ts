// The frame every HTML page shares (skip link, header with the main navigation, footer), declared
// once: the Astro layout renders it for the site's pages and the server renders it around /account,
// which depends on who is signed in and so is not an Astro page.
export interface SiteLink {
  href: string;
  label: string;
}

export const SITE_NAV: readonly SiteLink[] = [
  { href: '/rates', label: 'Rates' },
  { href: '/loan-limits', label: 'Loan limits' },
  { href: '/escrow', label: 'Escrow' },
  { href: '/calendar', label: 'Calendar' },
  { href: '/articles', label: 'Articles' },
  { href: '/glossary', label: 'Glossary' },
  { href: '/bills', label: 'Bills' },
  { href: '/docs/api', label: 'API' },
];

export const FOOTER_LINKS: readonly SiteLink[] = [
  { href: '/docs/api', label: 'API docs' },
  { href: '/account', label: 'API keys' },
  { href: '/ai-info-page', label: 'For AI models' },
  { href: '/feed.xml', label: 'RSS' },
];

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function link(item: SiteLink, currentPath: string): string {
  const current = item.href === currentPath.replace(/\/$/, '') ? ' aria-current="page"' : '';
  return `<a href="${escape(item.href)}"${current}>${escape(item.label)}</a>`;
}

/** Skip link and header; `currentPath` marks its own navigation entry with aria-current. */
export function siteHeaderHtml(currentPath: string): string {
  const items = SITE_NAV.map((item) => `<li>${link(item, currentPath)}</li>`).join('');
  return (
    '<a class="skip-link" href="#main">Skip to content</a>' +
    '<header class="site"><div class="bar"><a class="brand" href="/">Mortgage Data Service</a>' +
    `<nav aria-label="Main"><ul>${items}</ul></nav></div></header>`
  );
}

export function siteFooterHtml(currentPath: string): string {
  return (
    '<footer class="site"><div class="bar">' +
    '<p>Open mortgage data from official publishers, with sources and as-of dates. Free for non-commercial use · public beta.</p>' +
    `<p>${FOOTER_LINKS.map((item) => link(item, currentPath)).join(' · ')}</p>` +
    '</div></footer>'
  );
}
