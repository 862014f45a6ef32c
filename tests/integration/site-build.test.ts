// The built site (dist/): no content warnings, no broken internal link, a valid /feed.xml (on
// demand; without research data it carries every article and learn page), llms.txt and /ai-info-page generated from the registries, FAQ
// structured data on glossary pages, the content store read from a file (not held in the server's
// code); and broken content fails the build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeApi } from '../../api/api-description.ts';
import { PROJECT_ROOT } from '../../api/config.ts';
import { readArticles, readGlossary } from '../../api/content/markdown.ts';
import { MCP_TOOL_NAMES } from '../../api/mcp/tool-names.ts';
import { onDemandPages } from '../../api/site-info/on-demand-pages.ts';
import { BUILD_LOG, buildEnv } from '../../scripts/site-build.ts';
import { loadSsrHandler } from '../../api/server.ts';
import { buildTestApp, listen, testConfig, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { DIST_CLIENT, ensureSiteBuiltForTests } from '../support/site-build.ts';
import { STORE_FILE } from '../../site/lib/content-store-file-plugin.ts';
import { JSON_FEED_PATH, RSS_PATH } from '../../api/dataset-updates/feed-route.ts';

/** Routes served by Express outside the built pages (feeds and files that need live data, sign-in, MCP). */
const EXPRESS_ROUTES = [
  /^\/api\/v1\/openapi\.json$/,
  /^\/news-feed\.xml$/,
  new RegExp(`^${RSS_PATH.replace('.', '\\.')}$`),
  new RegExp(`^${JSON_FEED_PATH.replace('.', '\\.')}$`),
  /^\/sitemap\.xml$/,
  /^\/\.well-known\/brand-facts\.json$/,
  /^\/account$/,
  /^\/auth\/[a-z]+$/,
  /^\/api\/mcp$/,
  /^\/healthz$/,
];

function* htmlFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(full);
    else if (entry.name.endsWith('.html')) yield full;
  }
}

const read = (sitePath: string): string => fs.readFileSync(path.join(DIST_CLIENT, sitePath), 'utf8');

describe('the built site', () => {
  // /feed.xml renders on request: served by the app over an empty database (no research pages yet).
  let database: TestDatabase | undefined;
  let testApp: TestApp | undefined;
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  beforeAll(async () => {
    await ensureSiteBuiltForTests();
    database = await createTestDatabase('pglite');
    const ssrHandler = await loadSsrHandler(testConfig());
    testApp = await buildTestApp(database.db, { options: ssrHandler ? { ssrHandler } : {} });
    server = await listen(testApp.app);
  }, 600_000);
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('built without content warnings or errors', () => {
    const log = fs.readFileSync(BUILD_LOG, 'utf8');
    expect(log).toContain('Complete!');
    expect(log.split('\n').filter((line) => /\[(WARN|ERROR)\] \[(content|glob-loader)\]|Invalid content reference/.test(line))).toEqual([]);
  });

  it('has no broken internal link or asset reference', () => {
    const apiPaths = Object.keys((describeApi(testConfig()) as { paths: Record<string, unknown> }).paths).map(
      (apiPath) => new RegExp(`^/api/v1${apiPath.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    );
    const dynamic = [...onDemandPages().map((page) => page.pattern), ...EXPRESS_ROUTES, ...apiPaths];
    const broken: string[] = [];
    let checked = 0;
    for (const file of htmlFiles(DIST_CLIENT)) {
      const html = fs.readFileSync(file, 'utf8');
      for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
        const raw = (match[1] ?? '').replace(/&amp;/g, '&');
        if (!raw.startsWith('/') || raw.startsWith('//')) continue;
        const target = decodeURIComponent(raw.split(/[?#]/)[0] ?? '');
        checked += 1;
        const onDisk = [target, path.join(target, 'index.html'), `${target}.html`].some((candidate) => {
          const full = path.join(DIST_CLIENT, candidate);
          return full.startsWith(DIST_CLIENT) && fs.existsSync(full) && fs.statSync(full).isFile();
        });
        if (!onDisk && !dynamic.some((pattern) => pattern.test(target))) broken.push(`${path.relative(DIST_CLIENT, file)} → ${raw}`);
      }
    }
    expect(checked).toBeGreaterThan(1_000);
    expect(broken).toEqual([]);
  });

  it('serves /feed.xml as RSS 2.0 with every article and learn page (at least 60)', async () => {
    const response = await fetch(`${server?.url}/feed.xml`);
    expect(response.status).toBe(200);
    const feed = new XMLParser({ ignoreAttributes: false }).parse(await response.text()) as {
      rss: {
        '@_version': string;
        channel: {
          title: string;
          link: string;
          lastBuildDate: string;
          item: { title: string; link: string; pubDate: string; description: string }[];
        };
      };
    };
    expect(feed.rss['@_version']).toBe('2.0');
    const items = feed.rss.channel.item;
    expect(feed.rss.channel.lastBuildDate).toBe(items[0]!.pubDate);
    const expected = readArticles(undefined, 'articles').length + readArticles(undefined, 'learn').length;
    expect(items).toHaveLength(expected);
    expect(items.length).toBeGreaterThanOrEqual(60);
    for (const item of items) {
      expect(item.link).toMatch(/^https?:\/\/[^/]+\/(articles|learn)\/[a-z0-9-]+$/);
      expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
      expect(item.description.length).toBeGreaterThan(0);
    }
    const dates = items.map((item) => Date.parse(item.pubDate));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  it('builds a page per glossary term with FAQPage structured data matching its FAQs', () => {
    const glossary = readGlossary();
    expect(glossary.length).toBe(131);
    for (const entry of glossary) {
      const html = read(`glossary/${entry.slug}/index.html`);
      const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
        (match) => JSON.parse(match[1] ?? '{}') as { '@type': string; mainEntity?: { name: string }[] },
      );
      const faq = blocks.find((block) => block['@type'] === 'FAQPage');
      expect(
        faq?.mainEntity?.map((question) => question.name),
        entry.slug,
      ).toEqual(entry.data.faqs.map((item) => item.question));
    }
  });

  it('lists every endpoint and MCP tool in /ai-info-page and llms.txt', () => {
    const info = read('ai-info-page/index.html');
    const llms = read('llms.txt');
    for (const tool of MCP_TOOL_NAMES) {
      expect(info).toContain(tool.name);
      expect(llms).toContain(tool.name);
    }
    for (const apiPath of Object.keys((describeApi(testConfig()) as { paths: Record<string, unknown> }).paths)) {
      expect(info).toContain(`/api/v1${apiPath}`);
      expect(llms).toContain(`/api/v1${apiPath}`);
    }
    expect(llms.startsWith('# Mortgage Data Service\n\n> ')).toBe(true);
    expect(llms.match(/\/glossary\/[a-z0-9-]+\)/g)?.length).toBe(readGlossary().length);
  });

  it('renders every document of docs/ at /docs/<name>, listed on the /docs index beside the API reference', () => {
    const names = fs
      .readdirSync(path.join(PROJECT_ROOT, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => file.slice(0, -3));
    expect(names.length).toBeGreaterThan(10);
    const index = read('docs/index.html');
    expect(index).toContain('href="/docs/api"');
    expect(index).toContain('href="/api/v1/openapi.json"');
    for (const name of names) {
      expect(index, name).toContain(`href="/docs/${name}"`);
      const page = read(`docs/${name}/index.html`);
      expect(page.match(/<h1[ >]/g), name).toHaveLength(1);
      // Links between the files (written as file names) reach the pages, never a .md file.
      expect(page, name).not.toMatch(/href="[^"]*\.md(#[^"]*)?"/);
    }
    expect(read('docs/glossary/index.html')).toContain('href="/docs/api-conventions#kept-public-answers-the-front-door"');
  });

  it('points crawlers at the sitemap', () => {
    expect(read('robots.txt')).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);
  });

  it('keeps the content store in a file beside the server bundle, not in its code', () => {
    const server = path.join(DIST_CLIENT, '..', 'server');
    const store = JSON.parse(fs.readFileSync(path.join(server, STORE_FILE), 'utf8')) as unknown[];
    expect(store).toContain('articles');
    const chunks = path.join(server, 'chunks');
    const storeModule = fs.readdirSync(chunks).find((name) => name.startsWith('_astro_data-layer-content'));
    expect(storeModule).toBeDefined();
    const code = fs.readFileSync(path.join(chunks, storeModule!), 'utf8');
    expect(code).toContain(`new URL("../${STORE_FILE}", import.meta.url)`);
    expect(code.length).toBeLessThan(1_000);
  });
});

describe('broken content fails the build', () => {
  // A small fixture site (three terms, one article) built outside dist/, so each build is quick.
  function fixture(change: (dir: string) => void): { status: number | null; output: string } {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-site-fixture-'));
    try {
      const content = path.join(root, 'content');
      for (const collection of ['glossary', 'articles', 'learn']) fs.mkdirSync(path.join(content, collection), { recursive: true });
      const term = (slug: string, related: string) =>
        `---\nterm: "${slug}"\ndefinition: "A definition."\ncategory: "escrow-insurance"\nfaqs:\n  - question: "Q?"\n    answer: "A."\n` +
        `related: ["${related}"]\nlinks:\n  - title: "CFPB"\n    url: "https://www.consumerfinance.gov/"\nupdated: 2026-11-01\n---\nBody.\n`;
      fs.writeFileSync(path.join(content, 'glossary', 'escrow.md'), term('escrow', 'escrow-cushion'));
      fs.writeFileSync(path.join(content, 'glossary', 'escrow-cushion.md'), term('escrow-cushion', 'escrow'));
      fs.writeFileSync(
        path.join(content, 'articles', 'a.md'),
        '---\ntitle: "A"\ndescription: "D"\nauthor: "Editorial team"\ndate: 2026-10-01\ntags: ["escrow"]\ncategory: "escrow"\n---\n## One\nText.\n',
      );
      change(content);
      const astro = path.join(PROJECT_ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs');
      const result = spawnSync(process.execPath, [astro, 'build'], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        env: {
          ...buildEnv(),
          MDS_CONTENT_DIR: content,
          MDS_SITE_OUT_DIR: path.join(root, 'dist'),
          MDS_SITE_CACHE_DIR: path.join(root, 'cache'),
        },
      });
      return { status: result.status, output: `${result.stdout}${result.stderr}` };
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }

  beforeAll(() => ensureSiteBuiltForTests(), 600_000);

  it('a glossary term without a definition stops the build, naming the file and the field', () => {
    const { status, output } = fixture((content) => {
      const file = path.join(content, 'glossary', 'escrow.md');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('definition: "A definition."\n', ''));
    });
    expect(status).not.toBe(0);
    expect(output).toMatch(/escrow/);
    expect(output).toMatch(/definition/);
  }, 120_000);

  it('a related term that does not exist stops the build', () => {
    const { status, output } = fixture((content) => {
      const file = path.join(content, 'glossary', 'escrow.md');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('related: ["escrow-cushion"]', 'related: ["no-such-term"]'));
    });
    expect(status).not.toBe(0);
    expect(output).toMatch(/no-such-term/);
  }, 120_000);
});
