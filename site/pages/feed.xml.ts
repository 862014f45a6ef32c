// GET /feed.xml: every article and learn page, newest first, as RSS 2.0 (spec 4.7).
import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import { sortedEntries } from '../lib/content.ts';
import { BUILD_ORIGIN } from '../../api/platform/static/build-origin.ts';

export async function GET(context: APIContext): Promise<Response> {
  // The build's placeholder origin; the server writes its running one in its place.
  const site = context.site ?? new URL(BUILD_ORIGIN);
  const entries = [...(await sortedEntries('articles')), ...(await sortedEntries('learn'))].sort(
    (a, b) => b.data.date.getTime() - a.data.date.getTime() || a.data.title.localeCompare(b.data.title),
  );
  return rss({
    title: 'Mortgage Data Service: articles and learn pages',
    description: 'Articles and explainers on buying, refinancing, loan types, costs, credit, escrow, rates and HMDA research.',
    site,
    trailingSlash: false,
    xmlns: { atom: 'http://www.w3.org/2005/Atom', dc: 'http://purl.org/dc/elements/1.1/' },
    customData: `<language>en-us</language><atom:link href="${new URL('/feed.xml', site)}" rel="self" type="application/rss+xml"/>`,
    items: entries.map((entry) => ({
      title: entry.data.title,
      link: `/${entry.collection}/${entry.id}`,
      pubDate: entry.data.date,
      description: entry.data.description,
      categories: [entry.data.category, ...entry.data.tags],
      customData: `<dc:creator>${escapeXml(entry.data.author)}</dc:creator>`,
    })),
  });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
