// GET /feed.xml: every article and learn page, and the research pages /articles lists (51 states and
// the counties with the most HMDA records), newest first, as RSS 2.0 (docs/site.md). Rendered on request
// so the research items follow the sync; without research data the feed carries the written pages.
import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import escapeXml from 'escape-html';
import { sortedEntries } from '../lib/content.ts';
import { live } from '../views/live.ts';
import { BUILD_ORIGIN, lastBuildDateElement } from '../views/site-info.ts';

export const prerender = false;

interface FeedItem {
  title: string;
  link: string;
  pubDate: Date;
  description: string;
  categories: string[];
  author: string;
}

export async function GET(context: APIContext): Promise<Response> {
  // Rendered on demand by the running server: its own address (the build's placeholder otherwise).
  const site = new URL(context.locals.deps?.config.baseUrl ?? BUILD_ORIGIN);
  const written: FeedItem[] = [...(await sortedEntries('articles')), ...(await sortedEntries('learn'))].map(
    (entry) => ({
      title: entry.data.title,
      link: `/${entry.collection}/${entry.id}`,
      pubDate: entry.data.date,
      description: entry.data.description,
      categories: [entry.data.category, ...entry.data.tags],
      author: entry.data.author,
    }),
  );
  const research = await live(context.locals.deps, (deps) => deps.services.research.listings());
  const generated: FeedItem[] = research.ok
    ? research.value.map((item) => ({
        title: item.title,
        link: item.path,
        pubDate: new Date(`${item.date}T00:00:00Z`),
        description: item.description,
        categories: ['research', item.kind === 'state' ? 'state' : 'county'],
        author: 'Mortgage Data Service (generated from the data)',
      }))
    : [];
  const items = [...written, ...generated].sort(
    (a, b) => b.pubDate.getTime() - a.pubDate.getTime() || a.title.localeCompare(b.title),
  );
  const response = await rss({
    title: 'Mortgage Data Service: articles, learn pages and research',
    description:
      'Articles and explainers on buying, refinancing, loan types, costs, credit, escrow, rates and HMDA research, ' +
      'and research pages by state and county.',
    site,
    trailingSlash: false,
    xmlns: { atom: 'http://www.w3.org/2005/Atom', dc: 'http://purl.org/dc/elements/1.1/' },
    customData:
      `<language>en-us</language>${lastBuildDateElement(items.map((item) => item.pubDate))}` +
      `<atom:link href="${new URL('/feed.xml', site)}" rel="self" type="application/rss+xml"/>`,
    items: items.map((item) => ({
      title: item.title,
      link: item.link,
      pubDate: item.pubDate,
      description: item.description,
      categories: item.categories,
      customData: `<dc:creator>${escapeXml(item.author)}</dc:creator>`,
    })),
  });
  response.headers.set('Cache-Control', 'public, max-age=900');
  return response;
}
