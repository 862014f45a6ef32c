// The published files in memory, each encoded once with its strong content-hash ETag and held
// gzip-compressed (a tenth of the JSON's bytes: the identity bytes are ~29 MB for 1,500 files),
// regenerated when a dataset a publication is derived from has a new load, and (when the server runs
// it) also written as they are to DATA_DIR/generated/ for an operator to push to a CDN. Until a
// publication's datasets are loaded its paths answer 503 with the dataset's own "not loaded yet" words.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { CoreDeps } from '../platform/core-deps.ts';
import type { DomainServices } from '../domain-services.ts';
import { datasetsVersion } from './data-version.ts';
import { JSON_TYPE, type Publication, type PublishedFile, type PublishedServices } from './types.ts';
import { contentEtag } from '../platform/http/content-etag.ts';
import { giveWay } from '../platform/give-way.ts';

/** What producing publications reads: the services they come from, dataset loads, the host and year, the logger. */
type PublicationStoreDeps = Pick<CoreDeps, 'config' | 'clock' | 'logger'> & {
  services: PublishedServices & Pick<DomainServices, 'datasets'>;
};

export interface StoredFile {
  path: string;
  /** The file's bytes gzip-compressed: what is held, and what a client that accepts gzip is sent. */
  gzip: Buffer;
  /** The length of the file itself. */
  size: number;
  /** The strong ETag of the file itself (the index lists it); the gzip bytes have their own, gzipEtag(). */
  etag: string;
  contentType: string;
  rest: string;
}

interface PublicationState {
  version: string;
  files: StoredFile[];
  /** Why there are no files yet (the first dataset's 503 message), until its datasets load. */
  unavailable?: { message: string };
}

export type Lookup = { kind: 'file'; file: StoredFile } | { kind: 'unavailable'; message: string } | { kind: 'missing' };

export const INDEX_PATH = 'index.json';

const gunzip = promisify(zlib.gunzip);

/** A strong ETag names exact bytes, so the gzip bytes have their own: the file's tag with `-gzip`. */
export function gzipEtag(file: StoredFile): string {
  return `${file.etag.slice(0, -1)}-gzip"`;
}

/** The file's own bytes, for a client that does not accept gzip (rare: decompressed per request). */
export function identityBytes(file: StoredFile): Promise<Buffer> {
  return gunzip(file.gzip);
}

/**
 * Compressed synchronously, a file at a time between giveWay()s (the largest, 230 KB, in a few
 * milliseconds): zlib's asynchronous handles hold native memory until collected. The result is
 * copied into memory of its own size: zlib hands back a slice of Node's shared 64 KiB buffer pool,
 * and a slice keeps its whole slab alive (1,500 small files held 35 MiB of slabs for 4 MiB).
 */
function stored(file: Pick<PublishedFile, 'path' | 'contentType' | 'rest'>, bytes: Buffer): StoredFile {
  const compressed = zlib.gzipSync(bytes);
  const gzip = Buffer.allocUnsafeSlow(compressed.length);
  compressed.copy(gzip);
  return {
    path: file.path,
    gzip,
    size: bytes.length,
    etag: contentEtag(bytes),
    contentType: file.contentType,
    rest: file.rest,
  };
}

export class PublicationStore {
  private readonly states = new Map<string, PublicationState>();
  private files = new Map<string, StoredFile>();
  private refreshing: Promise<void> | undefined;
  private again = false;
  private checkedAt = 0;
  private stopped = false;

  private readonly deps: PublicationStoreDeps;
  private readonly publications: readonly Publication[];
  private readonly options: { writeDir?: string };

  constructor(deps: PublicationStoreDeps, publications: readonly Publication[], options: { writeDir?: string } = {}) {
    this.deps = deps;
    this.publications = publications;
    this.options = options;
  }

  /** Whether the first refresh has finished (before it, a request waits for it). */
  get ready(): boolean {
    return this.checkedAt > 0;
  }

  lookup(filePath: string): Lookup {
    const file = this.files.get(filePath);
    if (file) return { kind: 'file', file };
    // Stopped before its first regeneration: it cannot tell a file it would have made from none.
    if (this.stopped && !this.ready) return { kind: 'unavailable', message: 'The service is restarting; retry in a minute.' };
    const owner = this.publications.find((publication) => filePath.startsWith(`${publication.name}/`));
    const unavailable = owner ? this.states.get(owner.name)?.unavailable : undefined;
    return unavailable ? { kind: 'unavailable', ...unavailable } : { kind: 'missing' };
  }

  /** Re-checks the datasets when the last check is older than `maxAgeMs` (another process may have synced). */
  refreshIfOlderThan(maxAgeMs: number): Promise<void> {
    if (Date.now() - this.checkedAt < maxAgeMs) return Promise.resolve();
    return this.refresh();
  }

  /**
   * Regenerates nothing more: the service is shutting down. A regeneration under way stops at its
   * next file and drops its half-made publication (the previous files stay as they were).
   */
  stop(): void {
    this.stopped = true;
  }

  /** Regenerates each publication whose datasets have a new load; one run at a time, a call during it runs once more after. */
  refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.refreshOnce();
      } while (this.again);
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refreshOnce(): Promise<void> {
    const { services, logger, config, clock } = this.deps;
    const records = await services.datasets.list();
    const year = clock().getUTCFullYear();
    let changed = false;
    for (const publication of this.publications) {
      if (this.stopped) return;
      // The year too: default years and the calendar's span follow it, so a new year regenerates everything.
      const version = `${datasetsVersion(records, publication.datasets)}|${year}`;
      if (this.states.get(publication.name)?.version === version) continue;
      const missing = publication.datasets.find((name) => !records.some((record) => record.name === name));
      if (missing !== undefined) {
        const reason = await services.datasets.require(missing).then(
          () => ({ message: `The ${missing} dataset is loading; retry in a minute.` }),
          (error: Error) => ({ message: error.message }),
        );
        // No version: looked at again on the next refresh, until the dataset loads.
        this.states.set(publication.name, { version: '', files: [], unavailable: reason });
        changed = true;
        continue;
      }
      const written = this.options.writeDir === undefined ? undefined : new PublicationFolder(this.options.writeDir, publication.name);
      try {
        const started = Date.now();
        const files: StoredFile[] = [];
        await written?.begin();
        // Until every file is produced, the previous ones (if any) stay served.
        for await (const file of publication.produce(services, { host: new URL(config.baseUrl).hostname, year })) {
          if (this.stopped) break;
          if (!file.path.startsWith(`${publication.name}/`)) throw new Error(`${file.path} is outside ${publication.name}/`);
          await giveWay(); // hundreds of files to encode and hash
          const bytes = Buffer.from(file.body, 'utf8');
          await written?.write(file.path, bytes);
          files.push(stored(file, bytes));
        }
        if (this.stopped) {
          await written?.abandon();
          return;
        }
        await written?.commit();
        this.states.set(publication.name, { version, files });
        changed = true;
        logger.info({ publication: publication.name, files: files.length, ms: Date.now() - started }, 'publication regenerated');
      } catch (error) {
        await written?.abandon();
        if (this.stopped) {
          // The shutdown closed the database under it; the next start regenerates it.
          logger.info({ publication: publication.name }, 'publication cut off by the shutdown');
          return;
        }
        // The previous files (if any) stay served; the next refresh tries again.
        logger.error({ err: error, publication: publication.name }, 'publication could not be regenerated');
      }
    }
    if (changed) this.rebuildTable();
    this.checkedAt = Date.now();
  }

  private rebuildTable(): void {
    const files = new Map<string, StoredFile>();
    for (const state of this.states.values()) for (const file of state.files) files.set(file.path, file);
    const bytes = Buffer.from(JSON.stringify(this.describe(files)), 'utf8');
    files.set(INDEX_PATH, stored({ path: INDEX_PATH, contentType: JSON_TYPE, rest: '' }, bytes));
    this.files = files;
    if (this.options.writeDir) writeFileAtomically(path.join(this.options.writeDir, INDEX_PATH), bytes);
  }

  /** /data/index.json: every publication, whether it is available, and its files with their REST twins. */
  private describe(files: Map<string, StoredFile>) {
    return {
      publications: this.publications.map((publication) => {
        const state = this.states.get(publication.name);
        return {
          name: publication.name,
          datasets: publication.datasets,
          available: state !== undefined && state.unavailable === undefined,
          ...(state?.unavailable ? { reason: state.unavailable.message } : {}),
        };
      }),
      files: [...files.values()].map((file) => ({
        path: `/data/${file.path}`,
        content_type: file.contentType,
        bytes: file.size,
        etag: file.etag,
        api: `/api/v1${file.rest}`,
      })),
    };
  }
}

/**
 * DATA_DIR/generated/<name>/, replaced as a whole: each file is written beside it as it is produced
 * (so its bytes need not be kept), and the folder is swapped in once every file is there.
 */
class PublicationFolder {
  private readonly name: string;
  private readonly target: string;
  private readonly fresh: string;
  private readonly old: string;

  constructor(root: string, name: string) {
    this.name = name;
    this.target = path.join(root, name);
    this.fresh = path.join(root, `.${name}.new`);
    this.old = path.join(root, `.${name}.old`);
  }

  async begin(): Promise<void> {
    await fs.promises.rm(this.fresh, { recursive: true, force: true });
  }

  async write(filePath: string, bytes: Buffer): Promise<void> {
    const destination = path.join(this.fresh, path.relative(this.name, filePath));
    await fs.promises.mkdir(path.dirname(destination), { recursive: true });
    await fs.promises.writeFile(destination, bytes);
  }

  async commit(): Promise<void> {
    await fs.promises.rm(this.old, { recursive: true, force: true });
    if (fs.existsSync(this.target)) await fs.promises.rename(this.target, this.old);
    await fs.promises.rename(this.fresh, this.target);
    await fs.promises.rm(this.old, { recursive: true, force: true });
  }

  /** A failed regeneration leaves the previous folder as it was. */
  async abandon(): Promise<void> {
    await fs.promises.rm(this.fresh, { recursive: true, force: true }).catch(() => undefined);
  }
}

function writeFileAtomically(destination: string, bytes: Buffer): void {
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  fs.writeFileSync(`${destination}.new`, bytes);
  fs.renameSync(`${destination}.new`, destination);
}
