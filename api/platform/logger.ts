// Structured JSON logs (pino). Keys travel in headers and query strings, so both are redacted here,
// once, for every log line that carries a request.
import { pino, type Logger } from 'pino';

export type { Logger };

const SECRET_QUERY_PARAMETERS = /([?&](?:api_key|secret|code|state)=)[^&#]*/gi;

/** Removes API keys (and OAuth codes) from a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.includes('?') ? url.replace(SECRET_QUERY_PARAMETERS, '$1[REDACTED]') : url;
}

/** Bytes of log lines gathered before one write: ~40 request lines per system call instead of one each. */
export const LOG_BUFFER_BYTES = 8192;
/** Lines never wait longer than this in the buffer when traffic is light. */
const LOG_FLUSH_INTERVAL_MS = 1_000;

type SonicBoom = ReturnType<typeof pino.destination>;

/** A destination that can take access-log lines in batches (request-context.ts uses it when present). */
export interface BatchingStream {
  writeBatched(line: string): void;
}

/** A log destination whose buffered lines can be written out before the process ends. */
export interface BufferedLogOutput {
  stream: pino.DestinationStream;
  /** Writes every buffered line and waits until the system has them (graceful shutdown). */
  flush(): Promise<void>;
  /** Writes every buffered line before returning (fatal errors, where no event loop turn is left). */
  flushSync(): void;
}

/**
 * Gathers access-log lines in an array and hands them to the destination as one string per
 * LOG_BUFFER_BYTES; other lines are written at once (after the gathered ones, so order holds).
 * pino's asynchronous buffered destination (sonic-boom with `sync: false, minLength`) was tried
 * first and cost more, in profiles of GET /api/v1/rates under load: it appends each line to its
 * buffer string and measures that string's byte length on every line, and each 8 KiB write goes
 * through libuv's thread pool, waking a thread on the service's own CPU (5-6% of the CPU of a
 * request, against about 1% for the same bytes written here in one system call).
 */
class LineBatch implements pino.DestinationStream, BatchingStream {
  #lines: string[] = [];
  #chars = 0;
  readonly #destination: SonicBoom;

  constructor(destination: SonicBoom) {
    this.#destination = destination;
  }

  /** Any other line (start-up, warnings, errors: few, and wanted at once): written now, in order. */
  write(line: string): void {
    this.pass();
    this.#destination.write(line);
  }

  /** An access-log line: gathered, written with the next 8 KiB. */
  writeBatched(line: string): void {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= LOG_BUFFER_BYTES) this.pass();
  }

  /** Hands every gathered line to the destination. */
  pass(): void {
    if (this.#lines.length === 0) return;
    const chunk = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    this.#destination.write(chunk);
  }
}

/**
 * Standard output, buffered: lines gather in a LineBatch and go out in one write per 8 KiB (through
 * pino's sonic-boom, which retries a full pipe), so one access-log line per request costs an array
 * push instead of a system call. Nothing is lost: lines are written at least every second, on
 * shutdown (flush), on a fatal error (flushSync) and, as a last resort, on the process's exit. Like
 * pino's default destination, a reader that stops reading our output holds up the process once its
 * pipe is full; an asynchronous writer would hold the lines in memory instead (see LineBatch).
 */
export function bufferedStdout(): BufferedLogOutput {
  const destination = pino.destination({ dest: 1, sync: true });
  const batch = new LineBatch(destination);
  // The destination writes synchronously (its flushSync would add an fsync): handing the batch over
  // is writing it.
  const flushSync = (): void => {
    try {
      batch.pass();
    } catch {
      // Destroyed already (EPIPE: nobody reads our output any more): nothing can be written.
    }
  };
  setInterval(flushSync, LOG_FLUSH_INTERVAL_MS).unref();
  process.on('exit', flushSync);
  return {
    stream: batch,
    flush: async () => flushSync(),
    flushSync,
  };
}

/** The destination createLogger gave each logger (and, through onChild, its children). */
const destinations = new WeakMap<Logger, pino.DestinationStream>();

/**
 * Where `logger` writes, when createLogger was given the destination (undefined for any other
 * logger): the access-log line is written there directly (request-context.ts), without going
 * through pino's internals to find the stream.
 */
export function logDestination(logger: Logger): (pino.DestinationStream & Partial<BatchingStream>) | undefined {
  return destinations.get(logger);
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const logger = pino(
    {
      level,
      ...(destination ? { onChild: (child: Logger) => void destinations.set(child, destination) } : {}),
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
  if (destination) destinations.set(logger, destination);
  return logger;
}
