// Reads one official file: from the local mirror (MDS_SOURCE_DIR/mirrorPath) when a source folder is
// configured, otherwise from the publisher over HTTP with a time limit. Every read is checksummed.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SourceUnavailableError } from './errors.ts';
import type { SourceEntry, SourceFile } from './types.ts';

export interface SourceReaderOptions {
  /** MDS_SOURCE_DIR resolved; undefined = download from the publishers. */
  sourceDir: string | undefined;
  /** Per-download time limit (default 60 s). */
  timeoutMs?: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** One checksum for a dataset built from several files: stable whatever order they were read in. */
export function combineChecksums(files: readonly Pick<SourceFile, 'entry' | 'checksum'>[]): string {
  if (files.length === 1 && files[0]) return files[0].checksum;
  const lines = files.map((file) => `${file.entry.id}:${file.checksum}`).sort();
  return sha256(lines.join('\n'));
}

/** Resolves a mirror path below the source folder, refusing paths that would escape it. */
export function mirrorLocation(sourceDir: string, entry: SourceEntry): string {
  const root = path.resolve(sourceDir);
  const full = path.resolve(root, entry.mirrorPath);
  if (full !== root && !full.startsWith(root + path.sep)) {
    throw new SourceUnavailableError(`Source ${entry.id}: mirror path ${entry.mirrorPath} leaves ${root}.`);
  }
  return full;
}

export function createSourceReader(options: SourceReaderOptions): {
  readSource(entry: SourceEntry): Promise<SourceFile>;
  readOptionalSource(entry: SourceEntry): Promise<SourceFile | undefined>;
} {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const fetchImpl = options.fetch ?? fetch;

  async function fromMirror(entry: SourceEntry, sourceDir: string): Promise<SourceFile | undefined> {
    const location = mirrorLocation(sourceDir, entry);
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(location);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new SourceUnavailableError(`${location}: cannot read (${code ?? (error as Error).message}).`);
    }
    return { entry, bytes, origin: location, checksum: sha256(bytes) };
  }

  async function fromPublisher(entry: SourceEntry): Promise<SourceFile | undefined> {
    const url = entry.downloadUrl ?? entry.publisherUrl;
    let response: Response;
    try {
      response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message;
      // The download URL may carry a key: only the publisher URL goes into messages.
      throw new SourceUnavailableError(`${entry.publisherUrl}: download failed (${reason}). Set MDS_SOURCE_DIR to sync from local files.`);
    }
    if (response.status === 404) return undefined;
    if (!response.ok) {
      throw new SourceUnavailableError(`${entry.publisherUrl}: the publisher answered HTTP ${response.status}.`);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    return { entry, bytes, origin: entry.publisherUrl, checksum: sha256(bytes) };
  }

  async function readOptionalSource(entry: SourceEntry): Promise<SourceFile | undefined> {
    return options.sourceDir === undefined ? fromPublisher(entry) : fromMirror(entry, options.sourceDir);
  }

  return {
    readOptionalSource,
    async readSource(entry) {
      const file = await readOptionalSource(entry);
      if (file) return file;
      throw new SourceUnavailableError(
        options.sourceDir === undefined
          ? `${entry.publisherUrl}: not found (HTTP 404) for source ${entry.id}.`
          : `${mirrorLocation(options.sourceDir, entry)}: file not found (source ${entry.id}, published at ${entry.publisherUrl}).`,
      );
    },
  };
}
