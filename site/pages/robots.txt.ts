// GET /robots.txt: everything may be crawled; points crawlers at the sitemap and llms.txt.
import type { APIContext } from 'astro';

export function GET(context: APIContext): Response {
  const site = context.site ?? new URL('http://localhost:3000');
  const body = ['User-agent: *', 'Allow: /', 'Disallow: /account', '', `Sitemap: ${new URL('/sitemap.xml', site)}`, ''].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
