// Machine-readable files on the main host that need live data: /.well-known/brand-facts.json
// (dataset as-of dates) and /sitemap.xml (market updates, research and bill pages; written once per
// data version, served compressed like the built files). llms.txt, /ai-info-page and /feed.xml
// are prerendered by the site build from the same catalog.
import path from 'node:path';
import type { Express } from 'express';
import type { AppDeps } from '../deps.ts';
import { INDEXED_NEWS_WEEKS } from '../search/content-documents.ts';
import { buildBrandFacts } from './brand-facts.ts';
import { onDemandPages } from './on-demand-pages.ts';
import { builtPagePaths, renderSitemap } from './sitemap.ts';
import { datasetsVersion } from '../publications/data-version.ts';
import { StaticSite } from '../platform/static/static-site.ts';
import { serveStaticSite } from '../platform/static/serve.ts';

/** Pages not worth a crawler's visit (results of a query, one reader's account). */
const UNLISTED = new Set(['/search', '/feed.xml', '/account']);
const SITEMAP_PATH = '/sitemap.xml';

export function registerSiteInfoRoutes(app: Express, deps: AppDeps): void {
  app.get('/.well-known/brand-facts.json', async (_req, res) => {
    const facts = await buildBrandFacts(deps);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/json').send(JSON.stringify(facts, null, 2));
  });

  // The sitemap changes only with the data (market updates, research pages, bills): it is written
  // once per data version and served like a static file (compressed variants and ETags made once).
  let pages: string[] | undefined;
  const sitemap = new StaticSite();
  const serveSitemap = serveStaticSite(sitemap);
  let current: { version: string; written: Promise<void> } | undefined;
  app.get(SITEMAP_PATH, async (req, res, next) => {
    const version = datasetsVersion(await deps.services.datasets.list());
    if (current?.version !== version) {
      pages ??= [
        ...builtPagePaths(path.join(deps.config.distDir, 'client')),
        ...onDemandPages()
          .filter((page) => !page.hasParams && !UNLISTED.has(page.route))
          .map((page) => page.route),
      ];
      const listed = pages;
      const written = sitemapEntries(deps, listed).then((entries) => {
        // A slower write for an older load must not replace a newer one.
        if (current?.written === written)
          sitemap.put(SITEMAP_PATH, renderSitemap(deps.config.baseUrl, entries), 'application/xml; charset=utf-8', {
            cacheControl: 'public, max-age=3600',
          });
      });
      current = { version, written };
      written.catch(() => {
        if (current?.written === written) current = undefined;
      });
    }
    await current.written;
    serveSitemap(req, res, next);
  });
}

/** Every page the sitemap lists: built and on-demand pages, market updates, research pages and bill pages. */
async function sitemapEntries(deps: AppDeps, pages: string[]): Promise<{ path: string; lastmod?: string }[]> {
  const updates = await deps.services.news.list({ limit: INDEXED_NEWS_WEEKS });
  // Every state's and county's research page, and every bill's, once their data is loaded (none before).
  const research = await deps.services.research.paths().catch(() => []);
  const bills = await deps.services.bills.list().catch(() => []);
  return [
    ...[...new Set(pages)].sort().map((page) => ({ path: page })),
    ...updates.map((update) => ({ path: update.path, lastmod: update.week })),
    ...research.map((page) => ({ path: page })),
    ...bills.map((bill) => ({ path: `/bills/${bill.bill_id}`, lastmod: bill.latest_action.date })),
  ];
}
