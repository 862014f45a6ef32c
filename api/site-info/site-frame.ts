// The frame every HTML page shares (skip link, header with the main navigation, footer): its links
// are declared once here, and site/components/SiteHeader.astro and SiteFooter.astro draw them.
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
  { href: '/docs', label: 'Documentation' },
  { href: '/account', label: 'API keys' },
  { href: '/ai-info-page', label: 'For AI models' },
  { href: '/feed.xml', label: 'RSS' },
];
