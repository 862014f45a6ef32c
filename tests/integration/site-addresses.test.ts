// The built site names the address it is served at, not the one it was built with: started with
// only PORT set (BASE_URL defaults to http://localhost:$PORT), and separately with BASE_URL, every
// prebuilt file (walked from dist/client) and the on-demand pages carry that origin, and none the
// build's placeholder or the old default localhost:3000. No rebuild happens in between.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/child-server.ts';
import { siteIsStale } from '../../scripts/site-build.ts';
import { DIST_CLIENT, ensureSiteBuiltForTests } from '../support/site-build.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { prefillDataDir } from '../support/pglite-templates.ts';

function builtFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${path.relative(DIST_CLIENT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
    .sort();
}

const TEXT = /\.(html|xml|txt|json|css|js|svg)$/;

async function checkServedAt(server: ServerProcess, origin: string): Promise<void> {
  const files = builtFiles(DIST_CLIENT).filter((file) => TEXT.test(file));
  expect(files.length).toBeGreaterThan(200);
  let withOrigin = 0;
  for (const file of files) {
    const response = await fetch(`${server.url}${file}`);
    expect(response.status, file).toBe(200);
    const text = await response.text();
    expect(text, file).not.toContain('localhost:3000');
    expect(text, file).not.toContain('build-origin.invalid');
    if (text.includes(origin)) withOrigin += 1;
    if (file.endsWith('/index.html') && !file.startsWith('/404')) {
      const page = file.slice(0, -'/index.html'.length) || '/';
      expect(/<link rel="canonical" href="([^"]+)"/.exec(text)?.[1], file).toBe(page === '/' ? `${origin}/` : `${origin}${page}`);
    }
  }
  // Every page (the 404 page too) has its canonical link, and the feed, robots.txt and llms.txt
  // their absolute URLs; only the stylesheet and the favicon (a drawing) have none.
  expect(withOrigin).toBe(files.filter((file) => !file.startsWith('/_astro/') && file !== '/favicon.svg').length);

  const feed = await (await fetch(`${server.url}/feed.xml`)).text();
  const links = [...feed.matchAll(/<link>([^<]+)<\/link>/g)].map((match) => match[1]!);
  expect(links.length).toBeGreaterThan(60);
  for (const link of links) expect(link.startsWith(origin), link).toBe(true);
  expect(await (await fetch(`${server.url}/robots.txt`)).text()).toContain(`Sitemap: ${origin}/sitemap.xml`);
  const llms = await (await fetch(`${server.url}/llms.txt`)).text();
  expect(llms).toContain(`[API documentation](${origin}/docs/api)`);
  expect(llms).toContain(`${origin}/api/v1/rates`);

  // Files made by the running server, and a page rendered on demand.
  expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).toContain(`<loc>${origin}/glossary</loc>`);
  const facts = (await (await fetch(`${server.url}/.well-known/brand-facts.json`)).json()) as { baseUrl: string };
  expect(facts.baseUrl).toBe(origin);
  const search = await (await fetch(`${server.url}/search?query=escrow`)).text();
  expect(/<link rel="canonical" href="([^"]+)"/.exec(search)?.[1]).toBe(`${origin}/search`);
  expect(search).not.toContain('build-origin.invalid');
}

describe('addresses at run time', () => {
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-addresses-'));
    dataDirs.push(dataDir);
    await prefillDataDir(dataDir); // a migrated database: no initdb in the server's process
    const server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    await ensureSiteBuiltForTests();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uses http://localhost:$PORT when only PORT is set', async () => {
    const port = await freePort();
    // BASE_URL empty = unset; the "listening" line still names 127.0.0.1:<port>.
    const server = await start({ PORT: String(port), BASE_URL: '', LOG_LEVEL: 'info' });
    await checkServedAt(server, `http://localhost:${port}`);
  }, 120_000);

  it('uses BASE_URL when set, without a rebuild', async () => {
    const server = await start({ BASE_URL: 'https://example.org', LOG_LEVEL: 'info' });
    await checkServedAt(server, 'https://example.org');
    // The address is no input of the build: the same dist/ stays fresh whatever BASE_URL says.
    const previous = process.env.BASE_URL;
    process.env.BASE_URL = 'https://another.example';
    try {
      expect(siteIsStale()).toBe(false);
    } finally {
      process.env.BASE_URL = previous;
    }
  }, 120_000);
});
