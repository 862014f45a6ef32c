// The news feed on the main host (outside /api/v1): GET /news-feed.xml.
import type { Express } from 'express';
import type { AppDeps } from '../deps.ts';
import { renderNewsFeed } from './feed.ts';

export function registerNewsRoutes(app: Express, deps: AppDeps): void {
  app.get('/news-feed.xml', async (_req, res) => {
    const xml = await renderNewsFeed(deps.services.news, deps.config.baseUrl);
    res.setHeader('Cache-Control', 'public, max-age=900');
    res.type('application/rss+xml; charset=utf-8').send(xml);
  });
}
