// The frame every HTML page shares (skip link, header with the main navigation, footer): its links
// are declared once here. The Astro layout draws them with site/components/SiteHeader.astro and
// SiteFooter.astro; the HTML strings below are for /account, which the server still renders itself.
export interface SiteLink {
  href: string;
  label: string;
}

/** Every section of the site, in the order a reader meets them: data, then writing, then the API. */
export const SITE_NAV: readonly SiteLink[] = [
  { href: '/rates', label: 'Rates' },
  { href: '/loan-limits', label: 'Loan limits' },
  { href: '/calculator', label: 'Payment' },
  { href: '/escrow', label: 'Escrow' },
  { href: '/calendar', label: 'Calendar' },
  { href: '/research', label: 'Research' },
  { href: '/news', label: 'News' },
  { href: '/articles', label: 'Articles' },
  { href: '/learn', label: 'Learn' },
  { href: '/glossary', label: 'Glossary' },
  { href: '/bills', label: 'Bills' },
  { href: '/docs/api', label: 'API' },
];

/** The navigation entry a path belongs to: its own, or its section's (/research/ca is under Research). */
export function isCurrent(item: SiteLink, currentPath: string): boolean {
  const path = currentPath.replace(/\/$/, '') || '/';
  return path === item.href || path.startsWith(`${item.href}/`);
}

export const FOOTER_LINKS: readonly SiteLink[] = [
  { href: '/docs/api', label: 'API docs' },
  { href: '/account', label: 'API keys' },
  { href: '/ai-info-page', label: 'For AI models' },
  { href: '/feed.xml', label: 'RSS' },
];

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function link(item: SiteLink, currentPath: string): string {
  const current = isCurrent(item, currentPath) ? ' aria-current="page"' : '';
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
