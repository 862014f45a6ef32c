// A request id on every response (taken from a sane incoming X-Request-Id, else generated) and one
// structured log line per request, with keys redacted from the URL; slow ones are warnings.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { logDestination, redactUrl, type Logger } from '../logger.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A response slower than this is logged as a warning whatever the log level (the soak counts them). */
export const SLOW_REQUEST_MS = 10_000;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/**
 * A URL made only of these needs no escaping in a JSON string; any other goes through
 * JSON.stringify (quotes, backslashes, control and non-ASCII characters).
 */
const JSON_SAFE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** What a route adds to its request's access-log line, after the usual fields (the MCP endpoint: the method and tool called). */
const addedFields = new WeakMap<ServerResponse, Record<string, string>>();

/** Adds `fields` to the access-log line of the request `res` answers (values are escaped when written). */
export function addAccessLogFields(res: ServerResponse, fields: Record<string, string>): void {
  addedFields.set(res, { ...addedFields.get(res), ...fields });
}

/** The added fields as JSON members, each preceded by a comma ('' when none). */
function addedJson(fields: Record<string, string> | undefined): string {
  if (!fields) return '';
  return Object.entries(fields)
    .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`)
    .join('');
}

/**
 * Writes the ordinary (info) access line straight to the logger's destination (into its batch when it
 * has one: logger.ts, bufferedStdout), as the JSON line
 * pino would write for `logger.info({ requestId, method, url, status, durationMs }, 'request')` (same
 * keys, same order): pino's general path (bindings, serializers, redaction, key-by-key stringify)
 * was a few percent of a small API request's CPU. Measured again in a loop of 300,000 lines to a
 * sink, with the redaction createLogger configures: `logger.info` 5.3-6.3 µs a line, a child
 * logger's 6.0-7.3 µs, this writer 0.5-0.8 µs (a `/rates` request takes ~40 µs of CPU;
 * docs/benchmarks-history.md, item 16). The destination is the one createLogger was given
 * (logDestination); a logger made elsewhere takes the `logger.info` path. The request id is a UUID
 * or matched SAFE_REQUEST_ID and the method is an HTTP token, so neither needs escaping; the URL
 * (already redacted) is escaped when it holds anything JSON must escape; the ISO time is made once a
 * millisecond.
 */
type AccessLineWriter = (
  requestId: string,
  method: string,
  url: string,
  status: number,
  durationMs: number,
  fields?: Record<string, string>,
) => void;

function accessLineWriter(logger: Logger): AccessLineWriter {
  const stream = logDestination(logger);
  const write = stream?.writeBatched?.bind(stream) ?? stream?.write.bind(stream);
  if (!write)
    return (requestId, method, url, status, durationMs, fields) =>
      logger.info({ requestId, method, url, status, durationMs, ...fields }, 'request');
  const bindings = JSON.stringify(logger.bindings()).slice(1, -1);
  const prefix = `{"level":${logger.levels.values.info},"time":"`;
  const afterTime = `"${bindings === '' ? '' : `,${bindings}`},"requestId":"`;
  let lastMs = 0;
  let lastTime = '';
  return (requestId, method, url, status, durationMs, fields) => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastTime = new Date(now).toISOString();
    }
    const quotedUrl = JSON_SAFE.test(url) ? `"${url}"` : JSON.stringify(url);
    write(
      `${prefix}${lastTime}${afterTime}${requestId}","method":"${method}","url":${quotedUrl},"status":${status},"durationMs":${durationMs}${addedJson(fields)},"msg":"request"}\n`,
    );
  };
}

/**
 * Starts tracking one request (Express's or a raw one the front door answers): gives it its id, and
 * writes its access line when the response finishes. Returns the id, which the caller sends as
 * X-Request-Id (requestContext sets it at once; the front door writes it with the kept headers).
 */
export type RequestTracker = (req: IncomingMessage, res: ServerResponse) => string;

export function requestTracker(logger: Logger): RequestTracker {
  const writeAccessLine = accessLineWriter(logger);
  return (req, res) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    // Express rewrites req.url below a mount point; the URL as received is the one to log.
    const receivedUrl = req.url ?? '';
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : durationMs > SLOW_REQUEST_MS ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const url = redactUrl(receivedUrl);
      const rounded = Math.round(durationMs * 100) / 100;
      const fields = addedFields.get(res);
      if (level === 'info') writeAccessLine(id, req.method ?? '', url, res.statusCode, rounded, fields);
      else
        logger[level](
          { requestId: id, method: req.method, url, status: res.statusCode, durationMs: rounded, ...fields },
          level === 'warn' ? 'slow request' : 'request',
        );
    });
    return id;
  };
}

export function requestContext(logger: Logger): RequestHandler {
  const track = requestTracker(logger);
  return (req, res, next) => {
    req.id = track(req, res);
    res.setHeader('X-Request-Id', req.id);
    next();
  };
}
