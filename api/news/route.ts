// The news feed on the main host (outside /api/v1): GET /news-feed.xml. The feed is derived from
// the rate series alone, so it is rendered once per load of them and kept in memory: rendering
// 104 items cost ~14 ms of the event loop per request (measured by the soak, BENCHMARKS.md).
import type { Express } from 'express';
import type { AppDeps } from '../deps.ts';
import { renderNewsFeed } from './feed.ts';

const SOURCE_DATASETS = ['pmms', 'optimal_blue'];

export function registerNewsRoutes(app: Express, deps: AppDeps): void {
  let cached: { version: string; xml: Promise<string> } | undefined;
  app.get('/news-feed.xml', async (_req, res) => {
    const version = (await deps.services.datasets.list())
      .filter((record) => SOURCE_DATASETS.includes(record.name))
      .map((record) => `${record.name}@${record.loadedAt}`)
      .join(',');
    if (cached?.version !== version) {
      const xml = renderNewsFeed(deps.services.news, deps.config.baseUrl);
      cached = { version, xml };
      // A failed render is not kept: the next request tries again.
      xml.catch(() => {
        if (cached?.xml === xml) cached = undefined;
      });
    }
    const xml = await cached.xml;
    res.setHeader('Cache-Control', 'public, max-age=900');
    res.type('application/rss+xml; charset=utf-8').send(xml);
  });
}
