// Static pages and feeds: the site files Express serves from dist/client, and the RSS feeds.
import type { BenchModule, BenchRow } from './types.ts';
import { runLoad, serviceRow } from './load.ts';
import type { BenchContext } from './context.ts';

const FAMILIES: Record<string, string[]> = {
  static: ['/', '/glossary/annual-percentage-rate', '/docs/api'],
  feeds: ['/feed.xml', '/news-feed.xml'],
};

async function measure(family: string, context: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const path of FAMILIES[family] ?? []) {
    const result = await runLoad({ url: `${context.service.url}${path}`, connections: 50, durationSeconds: context.seconds });
    rows.push(serviceRow(family, `GET ${path}`, result, context));
  }
  return rows;
}

export const run: BenchModule = async (context) => {
  return [...(await measure('static', context)), ...(await measure('feeds', context))];
};
