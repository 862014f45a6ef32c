// Public answers, answered again without the router. An API answer sent with DATA_CACHE_CONTROL
// (`public, max-age=3600`) says by its own headers that it is the same for every caller of that
// URL: any shared cache between us and the client may keep it for an hour. The service keeps such
// an answer, as Express produced it, for one second and answers the next keyless GET for the same
// host and URL from it (front-door.ts): the request still gets its own request id, rate limit and
// access-log line, but no routing, query parsing or handler. On a hot URL that route work was a
// third of a request's CPU (docs/benchmarks-history.md, item 18).
//
// What keeps it true: only answers the full path produced for a caller without a key are kept;
// a request that carries a key, or asks conditionally (If-None-Match, If-Modified-Since), always
// takes the full path; entries are dropped when any dataset changes (app.ts) and live one second
// at most, so an answer that moves with the clock (days behind, "stale") is at most that late.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cacheCounter } from '../cache-meter.ts';

/** Headers that belong to one request, never to the kept answer. */
const PER_REQUEST_HEADERS = new Set(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']);

export interface KeptAnswer {
  /**
   * Names and values, one after the other, as the full path set them (casing and order), minus the
   * per-request ones: the form writeHead takes without building a header object per request.
   */
  headers: (string | number | readonly string[])[];
  /** The body as a string: Node writes a string body and the head in one write. */
  body: string;
  byteLength: number;
  expiresAt: number;
}

export interface AnswerLaneOptions {
  /** How long an answer is kept (default 1 s). */
  ttlMs?: number;
  /** Bodies larger than this are not kept (default 64 KiB). */
  maxBodyBytes?: number;
  /** Bound on the bytes of all kept bodies (default 8 MiB); the oldest go first. */
  maxTotalBytes?: number;
  now?: () => number;
}

export class AnswerLane {
  private readonly answers = new Map<string, KeptAnswer>();
  private totalBytes = 0;
  private readonly ttlMs: number;
  private readonly maxBodyBytes: number;
  private readonly maxTotalBytes: number;
  private readonly now: () => number;
  /** Hits: answers sent from here; misses: answers the full path produced and kept. */
  private readonly counter = cacheCounter('answer-lane');

  constructor(options: AnswerLaneOptions = {}) {
    this.ttlMs = options.ttlMs ?? 1_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
    this.maxTotalBytes = options.maxTotalBytes ?? 8 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /**
   * The key of a request the lane may answer: a GET without a key or a condition, by host (and
   * forwarded host, which decides the API host behind a proxy) and raw URL. Undefined otherwise.
   */
  static keyOf(req: IncomingMessage, url: string = req.url ?? ''): string | undefined {
    if (req.method !== 'GET') return undefined;
    const headers = req.headers;
    if (headers.authorization !== undefined || headers['x-api-key'] !== undefined) return undefined;
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return undefined;
    const forwardedHost = headers['x-forwarded-host'];
    return `${headers.host ?? ''} ${typeof forwardedHost === 'string' ? forwardedHost : ''} ${url}`;
  }

  /** The kept answer for this request, if there is one still fresh. */
  lookup(req: IncomingMessage): KeptAnswer | undefined {
    if (this.answers.size === 0) return undefined;
    const key = AnswerLane.keyOf(req);
    if (key === undefined) return undefined;
    const answer = this.answers.get(key);
    if (answer === undefined) return undefined;
    if (answer.expiresAt > this.now()) {
      this.counter.hits += 1;
      return answer;
    }
    this.forget(key, answer);
    return undefined;
  }

  /**
   * Keeps the 200 answer just sent for `req` (the caller decides it is public: a GET data route, a
   * caller without a key). `url` is the URL as received (Express's originalUrl: below a mount point
   * req.url is shortened); `body` is the JSON sent; the headers are read off the response.
   */
  keep(req: IncomingMessage, url: string, res: ServerResponse, body: string): void {
    const byteLength = Buffer.byteLength(body);
    if (res.statusCode !== 200 || byteLength > this.maxBodyBytes) return;
    const key = AnswerLane.keyOf(req, url);
    if (key === undefined) return;
    this.counter.misses += 1;
    const headers: KeptAnswer['headers'] = [];
    // Node keeps each header's name as it was set; getRawHeaderNames (OutgoingMessage, typed on
    // ClientRequest only) returns them so, and the kept answer goes out exactly as the first did.
    for (const name of (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
      if (PER_REQUEST_HEADERS.has(name.toLowerCase())) continue;
      const value = res.getHeader(name);
      if (value !== undefined) headers.push(name, value);
    }
    const previous = this.answers.get(key);
    if (previous) this.forget(key, previous);
    while (this.totalBytes + byteLength > this.maxTotalBytes && this.answers.size > 0) {
      const [oldestKey, oldest] = this.answers.entries().next().value as [string, KeptAnswer];
      this.forget(oldestKey, oldest);
    }
    this.answers.set(key, { headers, body, byteLength, expiresAt: this.now() + this.ttlMs });
    this.totalBytes += byteLength;
  }

  /** Drops every kept answer (a dataset changed). */
  clear(): void {
    this.answers.clear();
    this.totalBytes = 0;
  }

  get size(): number {
    return this.answers.size;
  }

  private forget(key: string, answer: KeptAnswer): void {
    this.answers.delete(key);
    this.totalBytes -= answer.byteLength;
  }
}

/** Writes a kept answer with this request's id (headers already set on `res`, such as RateLimit-*, are kept). */
export function writeKeptAnswer(res: ServerResponse, answer: KeptAnswer, requestId: string): void {
  res.writeHead(200, ['X-Request-Id', requestId, ...answer.headers] as string[]);
  res.end(answer.body, 'utf8');
}
