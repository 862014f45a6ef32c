// Structured JSON logs (pino). Keys travel in headers and query strings, so both are redacted here,
// once, for every log line that carries a request.
import { pino, type Logger } from 'pino';

export type { Logger };

const SECRET_QUERY_PARAMETERS = /([?&](?:api_key|secret|code|state)=)[^&#]*/gi;

/** Removes API keys (and OAuth codes) from a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETERS, '$1[REDACTED]');
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
