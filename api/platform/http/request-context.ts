// A request id on every response (taken from a sane incoming X-Request-Id, else generated) and one
// structured log line per request, with keys redacted from the URL; slow ones are warnings.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { redactUrl, type Logger } from '../logger.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A response slower than this is logged as a warning whatever the log level (the soak counts them). */
export const SLOW_REQUEST_MS = 10_000;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    req.id = incoming !== undefined && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : durationMs > SLOW_REQUEST_MS ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level]({
        requestId: req.id,
        method: req.method,
        url: redactUrl(req.originalUrl),
        status: res.statusCode,
        durationMs: Math.round(durationMs * 100) / 100,
      }, level === 'warn' ? 'slow request' : 'request');
    });
    next();
  };
}
