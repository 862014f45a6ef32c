// GET /news-feed.xml: market updates (generated weekly from the rate data) as RSS 2.0, rendered at
// request time with @astrojs/rss so it follows the sync.
import { getRssString } from '@astrojs/rss';
import escapeXml from 'escape-html';
import type { NewsService } from './service.ts';
import { lastBuildDateElement } from '../platform/feed-dates.ts';

/** Items in the feed: two years of weekly updates. */
export const NEWS_FEED_ITEMS = 104;

export async function renderNewsFeed(news: NewsService, baseUrl: string): Promise<string> {
  const updates = await news.list({ limit: NEWS_FEED_ITEMS });
  const published = (week: string) => new Date(`${week}T12:00:00Z`);
  return getRssString({
    title: 'Mortgage Data Service: market updates',
    description:
      'Weekly mortgage market updates generated from the data: Freddie Mac survey rates and the Optimal Blue benchmark, with their moves.',
    site: baseUrl,
    trailingSlash: false,
    xmlns: { atom: 'http://www.w3.org/2005/Atom' },
    customData:
      `<language>en-us</language>${lastBuildDateElement(updates.map((update) => published(update.week)))}` +
      `<atom:link href="${escapeXml(`${baseUrl}/news-feed.xml`)}" rel="self" type="application/rss+xml"/>`,
    items: updates.map((update) => ({
      title: update.title,
      link: update.path,
      pubDate: published(update.week),
      description: update.summary,
      content: update.paragraphs.map((paragraph) => `<p>${escapeXml(paragraph)}</p>`).join('') + '<p><em>Generated from the data.</em></p>',
      categories: ['market update'],
    })),
  });
}
