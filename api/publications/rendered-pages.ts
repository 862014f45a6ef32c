// The on-demand pages that only show synced data, rendered once per data version and served from
// memory until a sync changes it. A page at a URL without a query string is rendered through the
// Astro handler (./render-capture.ts) the first time it is asked for under the current datasets
// and UTC day (pages say "next events" and draw "the last five years"). After this process
// publishes a sync, every page already rendered is rendered again in the background, once the sync
// has nothing left to load; the running server also renders every such page without parameters at
// start and after each sync (prerenderDataPages, from its background jobs), so readers get pages
// from memory. Query-string variants (a lookup, a chart range) and the search page render per
// request, as before. A kept page holds its br and gzip variants, made once when it is rendered
// (in the background for pages rendered ahead), each with its own strong ETag: a reader gets the
// encoding it accepts without the page being compressed again.
import type { Request, RequestHandler, Response } from 'express';
import compression from 'compression';
import zlib from 'node:zlib';
import type { UsesServices } from '../domain-services.ts';
import type { DatasetRecord } from '../platform/datasets.ts';
import { onDemandPages } from '../site-info/on-demand-pages.ts';
import { datasetsVersion } from './data-version.ts';
import { renderPage, type ApiCaller, type CapturedPage, type PageDeps, type SsrHandler } from './render-capture.ts';
import { compressVariants } from '../platform/static/compression.ts';
import { staticFile, variantFor, type StaticFile } from '../platform/static/static-site.ts';
import { etagMatches } from '../platform/static/serve.ts';
import { BoundedCache } from '../platform/bounded-cache.ts';
import { giveWay } from '../platform/give-way.ts';
import { isoDay } from '../platform/dates.ts';

/** The pages' own deps, and what deciding when to render again reads (dataset loads, today). */
type RenderedPagesDeps = PageDeps & UsesServices<'datasets'>;

/** Pages whose answer depends on the reader, not only on the data. */
const PER_REQUEST = new Set(['/search', '/account']);
/** Bytes of rendered pages kept (the fixed pages plus the most recent weeks and bills asked for); the least recently used go first. */
const MAX_PAGE_BYTES = 24 * 1024 * 1024;
/** Headers the captured render carried that belong to its own (synthetic) connection. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);
const DEFAULT_CACHE_CONTROL = 'public, max-age=300';
/** After a sync publishes, wait this long for the next dataset before re-rendering (a sync publishes several). */
const RERENDER_DELAY_MS = 1_000;
/**
 * While a sync still has datasets to load, pages are not rendered ahead (each would be rendered
 * again after the next load, and a render holds every request for its length); the sync's last
 * publish asks again, and so does a look this much later (a sync another process runs publishes
 * nothing here).
 */
const SYNC_RECHECK_MS = 5_000;

interface Rendered {
  version: string;
  page: CapturedPage;
  /** The page's bytes, their compressed variants and an ETag per variant. */
  file: StaticFile;
}

/** Each app's renderer, so the running server's background jobs can ask for every page ahead of readers. */
const prerenderers = new WeakMap<RenderedPagesDeps, { start(): void; stop(): void }>();

/**
 * For the running server: render every data page without parameters now and again after each sync
 * this process publishes, so even the first reader of a version gets a page from memory. Returns
 * the function that stops it for good (at shutdown): no page is rendered ahead after the one under
 * way, if any.
 */
export function prerenderDataPages(deps: RenderedPagesDeps): () => void {
  prerenderers.get(deps)?.start();
  return () => prerenderers.get(deps)?.stop();
}

export function renderedPages(deps: RenderedPagesDeps, handler: SsrHandler, callApi?: ApiCaller): RequestHandler {
  const locals = { deps, ...(callApi ? { callApi } : {}) };
  const pages = onDemandPages().filter((page) => !PER_REQUEST.has(page.route));
  const fixedPaths = pages.filter((page) => !page.hasParams).map((page) => page.route);
  let eager = false;
  /** Rendering ahead has been stopped for good (the service is shutting down). */
  let stopped = false;
  const rendered = new BoundedCache<Rendered>({
    maxBytes: MAX_PAGE_BYTES,
    sizeOf: (entry, pathname) =>
      entry.page.bytes.length +
      (entry.file.variants.br?.body.length ?? 0) +
      (entry.file.variants.gzip?.body.length ?? 0) +
      2 * pathname.length +
      512,
  });
  const pending = new Map<string, Promise<Rendered | undefined>>();
  let seen: { records: readonly DatasetRecord[]; version: string } | undefined;
  /** The newest version seen: a slow render of an older one must not replace a page of it. */
  let latest = '';

  async function currentVersion(): Promise<string> {
    const records = await deps.services.datasets.list(); // cached for a few seconds
    if (seen?.records !== records) seen = { records, version: datasetsVersion(records) };
    latest = `${seen.version}|${isoDay(deps.clock())}`;
    return latest;
  }

  function render(pathname: string, version: string): Promise<Rendered | undefined> {
    const key = `${pathname}\n${version}`;
    const running = pending.get(key);
    if (running) return running;
    const work = renderPage(handler, locals, pathname)
      .then((page) => {
        if (!page) return undefined;
        const entry = { version, page, file: pageFile(page) };
        // A server error is not kept: the next request tries again.
        if (page.status < 500 && version === latest) {
          rendered.set(pathname, entry);
        }
        return entry;
      })
      .finally(() => pending.delete(key));
    pending.set(key, work);
    return work;
  }

  /**
   * Renders again each page held (and, once the server asked for it, each page without parameters)
   * whose version is past. Before each page, stops when a sync has started loading or a newer
   * version has appeared (a page rendered for the older one would not be kept), and says which.
   */
  async function renderAhead(): Promise<'done' | 'outdated' | 'syncing'> {
    const version = await currentVersion();
    const started = performance.now();
    let pages = 0;
    for (const pathname of new Set([...(eager ? fixedPaths : []), ...rendered.keys()])) {
      if (stopped) return 'done';
      if (await syncStillLoading()) return 'syncing';
      if ((await currentVersion()) !== version) return 'outdated';
      if (rendered.get(pathname)?.version === version) continue;
      await giveWay(); // each page is a render of its own: requests go between them
      await render(pathname, version);
      pages += 1;
    }
    if (pages > 0) deps.logger.info({ pages, ms: Math.round(performance.now() - started) }, 'pages rendered ahead');
    return 'done';
  }

  async function syncStillLoading(): Promise<boolean> {
    const overview = await deps.services.datasets.overview().catch(() => []);
    return overview.some((dataset) => dataset.loadingSince !== undefined);
  }

  // One pass at a time (a sync publishes several datasets, each asking for one); a request for
  // another during a pass runs one more after it.
  let passing = false;
  let passAgain = false;
  let timer: NodeJS.Timeout | undefined;
  const renderAheadIn = (ms: number): void => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      renderAheadLogged();
    }, ms);
    timer.unref();
  };
  const renderAheadLogged = (): void => {
    if (passing) {
      passAgain = true;
      return;
    }
    passing = true;
    void (async () => {
      do {
        passAgain = false;
        const outcome = await renderAhead();
        if (outcome === 'outdated') passAgain = true;
        else if (outcome === 'syncing') renderAheadIn(SYNC_RECHECK_MS);
      } while (passAgain && !stopped);
    })()
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'pages: could not render ahead'))
      .finally(() => {
        passing = false;
      });
  };

  deps.services.datasets.onInvalidate(() => renderAheadIn(RERENDER_DELAY_MS));
  prerenderers.set(deps, {
    start() {
      eager = true;
      renderAheadLogged();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  });

  const cacheable = (req: Request): string | undefined => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.originalUrl.includes('?')) return undefined;
    const pathname = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    return pages.some((page) => page.pattern.test(pathname)) ? pathname : undefined;
  };

  // A page rendered for one request (a lookup, a search) is compressed as it streams, at the
  // library's fast brotli quality: its bytes are never sent twice, so there is nothing to keep.
  const compressOnce = compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } });
  return (req, res, next) => {
    const pathname = cacheable(req);
    if (pathname === undefined) {
      compressOnce(req, res, () => handler(req, res, next, locals));
      return;
    }
    void (async () => {
      const version = await currentVersion();
      const hit = rendered.get(pathname);
      const entry = hit?.version === version ? hit : await render(pathname, version);
      if (!entry) next();
      else send(req, res, entry);
    })().catch(next);
  };
}

/** The captured page as a file of the static kind: its variants made here, once per render. */
function pageFile(page: CapturedPage): StaticFile {
  const contentType = String(page.headers['content-type'] ?? 'text/html; charset=utf-8');
  const cacheControl = String(page.headers['cache-control'] ?? DEFAULT_CACHE_CONTROL);
  return staticFile(page.bytes, contentType, cacheControl, compressVariants(page.bytes, contentType));
}

/** Headers of the page's own, written under the variant's (which set type, length, encoding, ETag and caching). */
const VARIANT_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'vary']);

function send(req: Request, res: Response, { page, file }: Rendered): void {
  for (const [name, value] of Object.entries(page.headers))
    if (!HOP_HEADERS.has(name) && !VARIANT_HEADERS.has(name)) res.setHeader(name, value);
  const variant = variantFor(file, req.headers['accept-encoding']);
  const ifNoneMatch = req.headers['if-none-match'];
  if (page.status === 200 && ifNoneMatch !== undefined && etagMatches(ifNoneMatch, variant.etag)) {
    res.writeHead(304, variant.notModifiedHeaders).end();
    return;
  }
  res.writeHead(page.status, variant.headers);
  if (req.method === 'HEAD') res.end();
  else res.end(variant.body);
}
