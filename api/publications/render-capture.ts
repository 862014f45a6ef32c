// Renders one page through the Astro handler the app mounts, without a client: a synthetic GET
// and a response that keeps what the handler writes. The captured status, headers and bytes are
// what a request would have received; the caller serves them until the data changes.
import http from 'node:http';
import net from 'node:net';
import { EventEmitter } from 'node:events';
import type { RequestHandler } from 'express';
import type { CoreDeps } from '../platform/core-deps.ts';
import type { UsesServices } from '../domain-services.ts';
import type { AccountPageLocals } from '../access/account-view.ts';

export interface CapturedPage {
  status: number;
  headers: Record<string, string | string[]>;
  bytes: Buffer;
}

/** A GET the server makes to its own API (examples on the API docs page): status and body text. */
export type ApiCaller = (pathWithQuery: string) => Promise<{ status: number; contentType: string; body: string }>;

/** What the on-demand pages read through Astro.locals.deps: settings, today, the logger and the services they show. */
export type PageDeps = Pick<CoreDeps, 'config' | 'clock' | 'logger'> &
  UsesServices<'bills' | 'calendar' | 'escrow' | 'loanLimits' | 'news' | 'rates' | 'research' | 'search' | 'series' | 'statistics'>;

/** What on-demand pages get as Astro.locals. */
export interface PageLocals {
  deps: PageDeps;
  callApi?: ApiCaller;
  /** What /account shows (api/access/account-routes.ts). */
  account?: AccountPageLocals;
}

/** The node adapter's handler in middleware mode: locals (the app's deps) come fourth. */
export type SsrHandler = (...args: [...Parameters<RequestHandler>, PageLocals]) => unknown;

/** Just what Astro's writeResponse uses of a ServerResponse. */
class CapturingResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  readonly req: http.IncomingMessage;
  private readonly headers: Record<string, string | string[]> = {};
  private readonly chunks: Buffer[] = [];
  private readonly done: (page: CapturedPage) => void;
  private readonly failed: (error: Error) => void;

  constructor(req: http.IncomingMessage, done: (page: CapturedPage) => void, failed: (error: Error) => void) {
    super();
    this.req = req;
    this.done = done;
    this.failed = failed;
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers[name.toLowerCase()] = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : [...value];
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.headers[name.toLowerCase()];
  }

  removeHeader(name: string): void {
    delete this.headers[name.toLowerCase()];
  }

  writeHead(status: number, headers?: Record<string, string | number | readonly string[] | undefined>): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array, callback?: () => void): boolean {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    callback?.();
    return true;
  }

  end(chunk?: string | Uint8Array): this {
    if (chunk !== undefined && typeof chunk !== 'function') this.write(chunk);
    this.headersSent = true;
    this.emit('finish');
    this.done({ status: this.statusCode, headers: this.headers, bytes: Buffer.concat(this.chunks) });
    return this;
  }

  destroy(error?: Error): this {
    this.failed(error ?? new Error('the page render was aborted'));
    return this;
  }
}

/**
 * Renders `pathname` (no query string) as a GET from the site's own host would. Resolves to
 * undefined when no on-demand page has that path (the handler passed it on).
 */
export function renderPage(handler: SsrHandler, locals: PageLocals, pathname: string): Promise<CapturedPage | undefined> {
  return captureGet((req, res, next) => handler(req, res, next, locals), locals.deps, pathname, 'text/html');
}

/** Runs a synthetic GET of `url` through `handler` and keeps what it writes (undefined when it passed the request on). */
export function captureGet(
  handler: (...args: Parameters<RequestHandler>) => unknown,
  deps: Pick<CoreDeps, 'config'>,
  url: string,
  accept: string,
): Promise<CapturedPage | undefined> {
  return new Promise((resolve, reject) => {
    const req = new http.IncomingMessage(new net.Socket());
    req.method = 'GET';
    req.url = url;
    req.headers = { host: new URL(deps.config.baseUrl).host, accept };
    req.push(null);
    const res = new CapturingResponse(req, resolve, reject);
    const next = (error?: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(undefined));
    Promise.resolve(handler(req as never, res as never, next)).catch(reject);
  });
}
