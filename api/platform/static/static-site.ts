// The built site (dist/client) as an in-memory table, loaded once at start: URL path → the body,
// its br and gzip variants, a strong ETag per variant and the response headers, all computed here
// so that serving a file is a lookup (serve.ts). Text files get the running addresses in place of
// the build's placeholder (build-origin.ts). Files made after the build (e.g. after a sync) are
// added or replaced with put(). The files of the build are compressed after the start, in the
// background (compressPending()): compressing all of them first held every start for ~0.3 s.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { withRunningAddresses } from './build-origin.ts';
import { giveWay } from '../give-way.ts';
import { acceptedEncodings, compressVariants, isCompressible, worthCompressing, type Encoding, type Variants } from './compression.ts';

export type HeaderTable = Record<string, string | number>;

/** One encoding of a file: its bytes and everything the response needs, ready to write. */
export interface StaticVariant {
  body: Buffer;
  etag: string;
  headers: HeaderTable;
  /** Headers of a 304 answer (no body, so no Content-Type or Content-Length). */
  notModifiedHeaders: HeaderTable;
}

export interface StaticFile {
  contentType: string;
  variants: Partial<Record<Encoding, StaticVariant>> & { identity: StaticVariant };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ics': 'text/calendar; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.pdf': 'application/pdf',
};

/** Content-Type by file extension (application/octet-stream when unknown). */
export function contentTypeOf(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/** Astro fingerprints /_astro files, so they may be cached for good; pages and feeds revalidate. */
export function cacheControlOf(urlPath: string): string {
  return urlPath.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
}

/** The paths a file answers: `/a/index.html` also as `/a/` and `/a`; `/a.html` also as `/a`. */
export function pathsOf(urlPath: string): string[] {
  if (urlPath === '/index.html') return ['/index.html', '/'];
  if (urlPath.endsWith('/index.html')) {
    const dir = urlPath.slice(0, -'/index.html'.length);
    return [urlPath, `${dir}/`, dir];
  }
  if (urlPath.endsWith('.html') && !urlPath.endsWith('/404.html')) return [urlPath, urlPath.slice(0, -'.html'.length)];
  return [urlPath];
}

export interface PutOptions {
  /** Defaults to cacheControlOf(path). */
  cacheControl?: string;
}

/** A file load() read whose compressed variants compressPending() has still to make. */
interface PendingFile {
  identity: Buffer;
  contentType: string;
  cacheControl: string;
}

export class StaticSite {
  readonly #files = new Map<string, StaticFile>();
  readonly #pending = new Map<string, PendingFile>();
  #compressing: Promise<void> | undefined;

  /**
   * Reads every file under `dir` (none when it does not exist) and writes `addresses` in place of
   * the build's placeholder in its text files. They are served uncompressed until compressPending()
   * has made their variants.
   */
  static load(dir: string, addresses: Parameters<typeof withRunningAddresses>[1]): StaticSite {
    const site = new StaticSite();
    const walk = (current: string): void => {
      for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
        const full = path.join(current, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.isFile()) {
          const urlPath = `/${path.relative(dir, full).split(path.sep).join('/')}`;
          const contentType = contentTypeOf(full);
          const bytes = fs.readFileSync(full);
          const body = isCompressible(contentType) ? Buffer.from(withRunningAddresses(bytes.toString('utf8'), addresses)) : bytes;
          const cacheControl = cacheControlOf(urlPath);
          const later = worthCompressing(body, contentType);
          site.#store(urlPath, body, contentType, cacheControl, later ? 'pending' : {});
          if (later) site.#pending.set(urlPath, { identity: body, contentType, cacheControl });
        }
      }
    };
    if (fs.existsSync(dir)) walk(dir);
    return site;
  }

  /**
   * Adds or replaces the file at `urlPath` (e.g. `/data/rates.json`, or `/x/index.html`, which also
   * answers `/x/` and `/x`). The body is served as given: write absolute URLs with the running
   * BASE_URL. Compression and ETags are computed here, once.
   */
  put(urlPath: string, body: Buffer | string, contentType: string, options: PutOptions = {}): void {
    if (!urlPath.startsWith('/') || urlPath.includes('\0')) throw new Error(`a static path starts with / (got ${JSON.stringify(urlPath)})`);
    const identity = typeof body === 'string' ? Buffer.from(body) : body;
    this.#pending.delete(urlPath);
    this.#store(urlPath, identity, contentType, options.cacheControl ?? cacheControlOf(urlPath), compressVariants(identity, contentType));
  }

  /**
   * Makes the compressed variants of the files load() read, one file at a time, handing the event
   * loop back between files (they are served uncompressed meanwhile). The same promise to every
   * caller; a file put() again in the meantime keeps its newer bytes.
   */
  compressPending(): Promise<void> {
    this.#compressing ??= (async () => {
      for (const [urlPath, pending] of this.#pending) {
        await giveWay();
        if (this.#pending.get(urlPath) !== pending) continue; // put() again meanwhile: it made its own
        this.#pending.delete(urlPath);
        const { identity, contentType, cacheControl } = pending;
        this.#store(urlPath, identity, contentType, cacheControl, compressVariants(identity, contentType));
      }
    })();
    return this.#compressing;
  }

  /**
   * Puts the file with the variants given; 'pending' when they are still to be made (the identity
   * then already says Vary: Accept-Encoding, as the file will).
   */
  #store(urlPath: string, identity: Buffer, contentType: string, cacheControl: string, compressed: Variants | 'pending'): void {
    const file = staticFile(identity, contentType, cacheControl, compressed);
    for (const alias of pathsOf(urlPath)) this.#files.set(alias, file);
  }

  /** The file at a request's path (percent-encoded or not), or undefined. */
  get(urlPath: string): StaticFile | undefined {
    const file = this.#files.get(urlPath);
    if (file !== undefined || !urlPath.includes('%')) return file;
    try {
      return this.#files.get(decodeURIComponent(urlPath));
    } catch {
      return undefined; // malformed escape: no such file
    }
  }

  /** The paths of the site's pages (`/x` for `/x/index.html`), sorted; error pages left out. */
  pagePaths(): string[] {
    return [...this.#files.keys()]
      .filter((key) => key.endsWith('/index.html'))
      .map((key) => key.slice(0, -'/index.html'.length) || '/')
      .sort();
  }

  /** How many distinct paths answer (aliases included). */
  get size(): number {
    return this.#files.size;
  }
}

/**
 * A body and its compressed variants as a StaticFile: a strong ETag per variant and the headers of
 * each, computed here once ('pending': variants still to be made; the identity then already says
 * Vary: Accept-Encoding, as the file will). Also used for pages held in memory outside the built site
 * (api/publications/rendered-pages.ts).
 */
export function staticFile(identity: Buffer, contentType: string, cacheControl: string, compressed: Variants | 'pending'): StaticFile {
  const vary = compressed === 'pending' || compressed.br !== undefined || compressed.gzip !== undefined;
  const variants = compressed === 'pending' ? {} : compressed;
  const tag = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const variant = (bytes: Buffer, encoding: Encoding): StaticVariant => {
    // A strong ETag names exact bytes, so each encoding has its own.
    const etag = `"${tag}${encoding === 'identity' ? '' : `-${encoding}`}"`;
    const common: HeaderTable = { ETag: etag, 'Cache-Control': cacheControl, ...(vary ? { Vary: 'Accept-Encoding' } : {}) };
    return {
      body: bytes,
      etag,
      headers: {
        'Content-Type': contentType,
        'Content-Length': bytes.length,
        ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
        ...common,
      },
      notModifiedHeaders: common,
    };
  };
  return {
    contentType,
    variants: {
      identity: variant(identity, 'identity'),
      ...(variants.br ? { br: variant(variants.br, 'br') } : {}),
      ...(variants.gzip ? { gzip: variant(variants.gzip, 'gzip') } : {}),
    },
  };
}

/** The variant to send for an Accept-Encoding header. */
export function variantFor(file: StaticFile, acceptEncoding: string | undefined): StaticVariant {
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    const variant = file.variants[encoding];
    if (variant) return variant;
  }
  return file.variants.identity;
}
