// GET /dataset-updates.xml (RSS 2.0) and /dataset-updates.json (JSON Feed 1.1) on the main host.
// Both are rendered once per new version (the service tells of each, ours at once, another
// instance's at its next look) and kept as static files (compressed variants and ETag computed once).
import type { Express } from 'express';
import type { AppDeps } from '../deps.ts';
import { StaticSite } from '../platform/static/static-site.ts';
import { serveStaticSite } from '../platform/static/serve.ts';
import { FEED_ITEMS, renderJsonFeed, renderRss } from './feed.ts';

export const RSS_PATH = '/dataset-updates.xml';
export const JSON_FEED_PATH = '/dataset-updates.json';
const CACHE_CONTROL = 'public, max-age=300';

export function registerDatasetUpdateFeeds(app: Express, deps: AppDeps): void {
  const feeds = new StaticSite();
  const serve = serveStaticSite(feeds);
  let rendered: Promise<void> | undefined;
  deps.services.datasetUpdates.onPublished(() => (rendered = undefined));
  const render = async () => {
    const updates = await deps.services.datasetUpdates.latest(FEED_ITEMS);
    const baseUrl = deps.config.baseUrl;
    feeds.put(RSS_PATH, await renderRss(updates, baseUrl), 'application/rss+xml; charset=utf-8', { cacheControl: CACHE_CONTROL });
    feeds.put(JSON_FEED_PATH, renderJsonFeed(updates, baseUrl), 'application/feed+json; charset=utf-8', { cacheControl: CACHE_CONTROL });
  };
  app.get([RSS_PATH, JSON_FEED_PATH], async (req, res, next) => {
    const current = (rendered ??= render());
    // A failed render is not kept: the next request tries again.
    current.catch(() => {
      if (rendered === current) rendered = undefined;
    });
    try {
      await current;
    } catch (error) {
      next(error);
      return;
    }
    serve(req, res, next);
  });
}
