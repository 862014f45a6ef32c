// The site's on-demand pages (`export const prerender = false` in site/pages), as route patterns,
// read from the page files themselves so the sitemap and the link check cannot miss one.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config.ts';

export const PAGES_DIR = path.join(PROJECT_ROOT, 'site', 'pages');

export interface OnDemandPage {
  /** e.g. `/news/[week]` */
  route: string;
  /** Matches a concrete path, e.g. `/news/2026-10-08`. */
  pattern: RegExp;
  hasParams: boolean;
}

export function onDemandPages(pagesDir = PAGES_DIR): OnDemandPage[] {
  const pages: OnDemandPage[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(astro|ts)$/.test(entry.name) && /export const prerender\s*=\s*false/.test(fs.readFileSync(full, 'utf8'))) {
        const relative = path
          .relative(pagesDir, full)
          .split(path.sep)
          .join('/')
          .replace(/\.(astro|ts)$/, '')
          .replace(/(^|\/)index$/, '');
        const route = `/${relative}`;
        const source = route
          .split('/')
          .map((segment) =>
            /^\[\.\.\..+\]$/.test(segment) ? '.*' : /^\[.+\]$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|\\]/g, '\\$&'),
          )
          .join('/');
        pages.push({ route, pattern: new RegExp(`^${source}/?$`), hasParams: route.includes('[') });
      }
    }
  };
  walk(pagesDir);
  return pages.sort((a, b) => a.route.localeCompare(b.route));
}
