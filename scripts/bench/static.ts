// Static pages and both feeds, each side by side with a bare Express app serving the same files
// with `express.static` (the bytes fetched from the service, so both send the same body), in the
// service's default configuration (access log and security headers on). Target: >= 0.6 of it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchModule, BenchRow } from './types.ts';
import { startStaticBaseline } from './baseline.ts';
import { compareSideBySide, sideBySideRow } from './side-by-side.ts';

const FAMILIES: Record<string, string[]> = {
  static: ['/', '/glossary/annual-percentage-rate', '/docs/api'],
  feeds: ['/feed.xml', '/news-feed.xml'],
};

const MINIMUM = 0.6;
const STATIC_BASELINE = 'bare Express express.static, same files';

/** Where express.static (with `.html` extensions tried) finds `route`: `/` → index.html, `/a` → a.html. */
function fileFor(route: string): string {
  if (route === '/') return 'index.html';
  return path.extname(route) === '' ? `${route.slice(1)}.html` : route.slice(1);
}

export const run: BenchModule = async (context) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-bench-static-'));
  const rows: BenchRow[] = [];
  try {
    for (const route of Object.values(FAMILIES).flat()) {
      const response = await fetch(`${context.service.url}${route}`, { headers: { 'Accept-Encoding': 'identity' } });
      if (response.status !== 200) throw new Error(`GET ${route} answered ${response.status}`);
      const file = path.join(dir, fileFor(route));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    }
    const baseline = await startStaticBaseline(dir);
    try {
      for (const [family, routes] of Object.entries(FAMILIES)) {
        for (const route of routes) {
          const result = await compareSideBySide(context, baseline, route);
          rows.push(sideBySideRow(family, `GET ${route}`, STATIC_BASELINE, result, context, MINIMUM));
        }
      }
    } finally {
      await baseline.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
