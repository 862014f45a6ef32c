// Machine-readable files on the main host that need live data: /.well-known/brand-facts.json
// (dataset as-of dates) and /sitemap.xml (market updates, research pages). llms.txt, /ai-info-page and /feed.xml
// are prerendered by the site build from the same catalog.
import path from 'node:path';
import type { Express } from 'express';
import type { AppDeps } from '../deps.ts';
import { INDEXED_NEWS_WEEKS } from '../search/content-documents.ts';
import { buildBrandFacts } from './brand-facts.ts';
import { onDemandPages } from './on-demand-pages.ts';
import { builtPagePaths, renderSitemap } from './sitemap.ts';

/** Pages not worth a crawler's visit (results of a query, one reader's account). */
const UNLISTED = new Set(['/search', '/feed.xml', '/account']);

export function registerSiteInfoRoutes(app: Express, deps: AppDeps): void {
  app.get('/.well-known/brand-facts.json', async (_req, res) => {
    const facts = await buildBrandFacts(deps);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/json').send(JSON.stringify(facts, null, 2));
  });

  let pages: string[] | undefined;
  app.get('/sitemap.xml', async (_req, res) => {
    pages ??= [
      ...builtPagePaths(path.join(deps.config.distDir, 'client')),
      ...onDemandPages()
        .filter((page) => !page.hasParams && !UNLISTED.has(page.route))
        .map((page) => page.route),
    ];
    const updates = await deps.services.news.list({ limit: INDEXED_NEWS_WEEKS });
    // Every state's and county's research page, once their data is loaded (none before).
    const research = await deps.services.research.paths().catch(() => []);
    const entries = [
      ...[...new Set(pages)].sort().map((page) => ({ path: page })),
      ...updates.map((update) => ({ path: update.path, lastmod: update.week })),
      ...research.map((page) => ({ path: page })),
    ];
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/xml; charset=utf-8').send(renderSitemap(deps.config.baseUrl, entries));
  });
}
