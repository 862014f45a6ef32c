// /sitemap.xml: every prerendered page in dist/client (so it lists exactly what the build made)
// plus the on-demand pages and the market updates in the database.
import fs from 'node:fs';
import path from 'node:path';
import escapeXml from 'escape-html';

/** Site paths of the built pages: `dist/client/x/index.html` → `/x`, skipping error pages. */
export function builtPagePaths(clientDir: string): string[] {
  const paths: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '_astro') walk(full);
      } else if (entry.name === 'index.html') {
        const relative = path.relative(clientDir, dir).split(path.sep).join('/');
        paths.push(relative === '' ? '/' : `/${relative}`);
      }
    }
  };
  if (fs.existsSync(clientDir)) walk(clientDir);
  return paths.sort();
}

export function renderSitemap(baseUrl: string, entries: { path: string; lastmod?: string }[]): string {
  const urls = entries.map(
    (entry) =>
      `  <url><loc>${escapeXml(`${baseUrl}${entry.path === '/' ? '/' : entry.path}`)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}
