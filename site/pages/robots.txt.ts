// GET /robots.txt: everything may be crawled; points crawlers at the sitemap and llms.txt.
import type { APIContext } from 'astro';
import { BUILD_ORIGIN } from '../views/site-info.ts';

export function GET(context: APIContext): Response {
  // The build's placeholder origin; the server writes its running one in its place.
  const site = context.site ?? new URL(BUILD_ORIGIN);
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /account',
    '',
    `Sitemap: ${new URL('/sitemap.xml', site).toString()}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
