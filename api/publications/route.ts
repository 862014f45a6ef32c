// GET /data/<path>: the published files from memory, gzip-compressed to a client that accepts it
// (as held) and as they are to one that does not, each with its strong ETag (304 on If-None-Match)
// and the API's data Cache-Control, readable from any origin like the API. One store per app: the
// server's background job regenerates it after each sync; a request re-checks the datasets at most
// every few seconds (a sync run by another process shows there).
import path from 'node:path';
import type { Express, Request, Response, NextFunction } from 'express';
import type { AppDeps } from '../deps.ts';
import { DATA_CACHE_CONTROL } from '../platform/http/api-registry.ts';
import { MethodNotAllowedError, NotFoundError, ServiceUnavailableError, toErrorResponse } from '../platform/errors.ts';
import { publications } from './registry.ts';
import { INDEX_PATH, PublicationStore, gzipEtag, identityBytes } from './store.ts';
import { acceptedEncodings } from '../platform/static/compression.ts';
import { prerenderDataPages } from './rendered-pages.ts';

/** How old the last look at the datasets may be when a file is asked for. */
const RECHECK_MS = 5_000;
/** The running server also looks this often without requests, to write the files after another process's sync. */
const BACKGROUND_RECHECK_MS = 60_000;

const stores = new WeakMap<AppDeps, PublicationStore>();

export function publicationStore(deps: AppDeps): PublicationStore {
  let store = stores.get(deps);
  if (!store) {
    store = new PublicationStore(deps, publications);
    stores.set(deps, store);
  }
  return store;
}

/**
 * For the running server: build the files now, write them to DATA_DIR/generated/, and regenerate
 * after each sync this process publishes (and every minute, for one another process ran); and,
 * once `renderAheadFrom` has resolved and the files have been written once, render the data pages
 * ahead of their readers.
 */
export function startPublishing(deps: AppDeps, renderAheadFrom: Promise<void> = Promise.resolve()): () => void {
  const store = new PublicationStore(deps, publications, { writeDir: path.join(deps.config.dataDir, 'generated') });
  stores.set(deps, store);
  const refresh = () =>
    store.refresh().catch((error: unknown) => deps.logger.warn({ err: error }, 'publications: could not read the datasets'));
  const unsubscribe = deps.services.datasets.onInvalidate(() => void refresh());
  const timer = setInterval(() => void refresh(), BACKGROUND_RECHECK_MS);
  timer.unref();
  const firstRefresh = refresh();
  let stopPrerendering: (() => void) | undefined;
  let stopped = false;
  // After the files' first writing too: it reads every loan-limit year and the escrow schedules.
  void Promise.all([renderAheadFrom, firstRefresh]).then(() => {
    if (!stopped) stopPrerendering = prerenderDataPages(deps);
  });
  return () => {
    stopped = true;
    stopPrerendering?.();
    store.stop();
    unsubscribe();
    clearInterval(timer);
  };
}

export function registerPublicationRoutes(app: Express, deps: AppDeps): void {
  app.use('/data', (req: Request, res: Response, next: NextFunction) => {
    void serve(deps, req, res).catch((error: unknown) => {
      const { body, headers, expected } = toErrorResponse(error);
      // A data file's refusal is JSON whatever the client accepts, like the API's; faults go to the one error handler.
      if (!expected || res.headersSent) {
        next(error);
        return;
      }
      res.set(headers).setHeader('Cache-Control', 'no-store');
      res.status(body.status).json(body);
    });
  });
}

async function serve(deps: AppDeps, req: Request, res: Response): Promise<void> {
  const store = publicationStore(deps);
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, ['GET', 'HEAD']);
  if (store.ready)
    void store.refreshIfOlderThan(RECHECK_MS).catch((error: unknown) => deps.logger.warn({ err: error }, 'publications: refresh failed'));
  else await store.refresh();
  const filePath = req.path.replace(/^\/+/, '') || INDEX_PATH;
  const found = store.lookup(filePath);
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (found.kind === 'unavailable') throw new ServiceUnavailableError(found.message, 60);
  if (found.kind === 'missing')
    throw new NotFoundError(`No data file at /data/${filePath.slice(0, 200)}. Every file is listed at /data/${INDEX_PATH}.`);
  const { file } = found;
  const gzip = acceptedEncodings(req.headers['accept-encoding']).includes('gzip');
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('ETag', gzip ? gzipEtag(file) : file.etag);
  res.setHeader('Cache-Control', DATA_CACHE_CONTROL);
  res.vary('Accept-Encoding');
  if (req.fresh) {
    res.removeHeader('Content-Type');
    res.status(304).end();
    return;
  }
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', gzip ? file.gzip.length : file.size);
  if (req.method === 'HEAD') res.end();
  else res.end(gzip ? file.gzip : await identityBytes(file));
}
