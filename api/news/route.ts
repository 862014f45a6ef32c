// The news feed on the main host (outside /api/v1): GET /news-feed.xml. The feed is derived from
// the rate series alone, so it is rendered once per load of them: rendering 104 items cost ~14 ms of
// the event loop per request (measured by the soak, BENCHMARKS.md), and Express's send then hashed
// the 100 kB body for its ETag on every request. The rendered feed is kept as a static file
// (api/platform/static: compressed variants and ETag computed once) and served like one.
import type { Express } from 'express';
import type { AppDeps } from '../deps.ts';
import { StaticSite } from '../platform/static/static-site.ts';
import { serveStaticSite } from '../platform/static/serve.ts';
import { renderNewsFeed } from './feed.ts';

const SOURCE_DATASETS = ['pmms', 'optimal_blue'];
const PATH = '/news-feed.xml';

export function registerNewsRoutes(app: Express, deps: AppDeps): void {
  const feed = new StaticSite();
  const serve = serveStaticSite(feed);
  let current: { version: string; rendered: Promise<void> } | undefined;
  app.get(PATH, async (req, res, next) => {
    const version = (await deps.services.datasets.list())
      .filter((record) => SOURCE_DATASETS.includes(record.name))
      .map((record) => `${record.name}@${record.loadedAt}`)
      .join(',');
    if (current?.version !== version) {
      const rendered = renderNewsFeed(deps.services.news, deps.config.baseUrl).then((xml) => {
        // A slower render of an older load must not replace a newer one.
        if (current?.rendered === rendered)
          feed.put(PATH, xml, 'application/rss+xml; charset=utf-8', { cacheControl: 'public, max-age=900' });
      });
      current = { version, rendered };
      // A failed render is not kept: the next request tries again.
      rendered.catch(() => {
        if (current?.rendered === rendered) current = undefined;
      });
    }
    await current.rendered;
    serve(req, res, next);
  });
}
