// Structured JSON logs (pino). Keys travel in headers and query strings, so both are redacted here,
// once, for every log line that carries a request.
import { pino, type Logger } from 'pino';

export type { Logger };

const SECRET_QUERY_PARAMETERS = /([?&](?:api_key|secret|code|state)=)[^&#]*/gi;

/** Removes API keys (and OAuth codes) from a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETERS, '$1[REDACTED]');
}

/** Bytes of log lines gathered before one write: ~25 request lines per system call instead of one each. */
export const LOG_BUFFER_BYTES = 4096;
/** Lines never wait longer than this in the buffer when traffic is light. */
const LOG_FLUSH_INTERVAL_MS = 1_000;

/** A log destination whose buffered lines can be written out before the process ends. */
export interface BufferedLogOutput {
  stream: pino.DestinationStream;
  /** Writes every buffered line and waits until the system has them (graceful shutdown). */
  flush(): Promise<void>;
  /** Writes every buffered line before returning (fatal errors, where no event loop turn is left). */
  flushSync(): void;
}

/**
 * Standard output through pino's asynchronous buffered writer (sonic-boom): one access-log line per
 * request costs a string append instead of a system call each. Nothing is lost: lines are written
 * at least every second, on shutdown (flush), on a fatal error (flushSync) and, as a last resort,
 * by pino's own exit hook.
 */
export function bufferedStdout(): BufferedLogOutput {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // Destroyed (EPIPE: nobody reads our output any more): nothing left to write.
    }
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return {
    stream: destination,
    flush: () => new Promise((resolve) => destination.flush(() => resolve())),
    flushSync: () => {
      try {
        destination.flushSync();
      } catch {
        // Destroyed already (EPIPE: nobody reads our output any more): nothing can be written.
      }
    },
  };
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'mortgage-data-service' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'req.headers.cookie',
          'headers.authorization',
          'headers["x-api-key"]',
          'headers.cookie',
          'apiKey',
          'key',
        ],
        censor: '[REDACTED]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
