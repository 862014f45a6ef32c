// Downloads one publisher file straight to disk, checksumming as it goes: a state-year of HMDA
// records is hundreds of megabytes, more than the service should ever hold in memory. A download
// that stops sending for a minute is abandoned (a slow but steady one is not).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SourceUnavailableError } from '../sync/errors.ts';

export interface DownloadOptions {
  fetch?: typeof fetch;
  /** Abandon the download after this long without a byte (default 60 s). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface Downloaded {
  checksum: string;
  bytes: number;
  /** The first bytes, to tell a gzip or ZIP file from plain text. */
  head: Buffer;
}

/** Streams `url` into `target`; resolves to undefined when the publisher answers 404. */
export async function downloadToFile(url: string, target: string, options: DownloadOptions = {}): Promise<Downloaded | undefined> {
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  let idle: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => controller.abort(new Error(`no data for ${idleTimeoutMs / 1000} s`)), idleTimeoutMs);
  };
  try {
    arm();
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { signal: controller.signal, redirect: 'follow' });
    } catch (error) {
      throw new SourceUnavailableError(`${url}: download failed (${describe(error, controller.signal)}).`);
    }
    if (response.status === 404) return undefined;
    if (!response.ok || !response.body) throw new SourceUnavailableError(`${url}: the publisher answered HTTP ${response.status}.`);
    const hash = createHash('sha256');
    let bytes = 0;
    let head = Buffer.alloc(0);
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        arm();
        hash.update(chunk);
        bytes += chunk.length;
        if (head.length < 4) head = Buffer.concat([head, chunk.subarray(0, 4 - head.length)]);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), measure, fs.createWriteStream(target));
    } catch (error) {
      throw new SourceUnavailableError(
        `${url}: download failed after ${bytes.toLocaleString('en-US')} bytes (${describe(error, controller.signal)}).`,
      );
    }
    return { checksum: hash.digest('hex'), bytes, head };
  } finally {
    clearTimeout(idle);
    options.signal?.removeEventListener('abort', abort);
  }
}

function describe(error: unknown, signal: AbortSignal): string {
  if (signal.aborted && signal.reason instanceof Error) return signal.reason.message;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
