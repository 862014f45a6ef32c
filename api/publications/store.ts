// The published files in memory, each encoded once with its strong content-hash ETag, regenerated
// when a dataset a publication is derived from has a new load, and (when the server runs it) also
// written to DATA_DIR/generated/ for an operator to push to a CDN. Until a publication's datasets
// are loaded its paths answer 503 with the dataset's own "not loaded yet" words.
import fs from 'node:fs';
import path from 'node:path';
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
  bytes: Buffer;
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

function stored(file: Pick<PublishedFile, 'path' | 'contentType' | 'rest'> & { body: string }): StoredFile {
  const bytes = Buffer.from(file.body, 'utf8');
  const etag = contentEtag(bytes);
  return { path: file.path, bytes, etag, contentType: file.contentType, rest: file.rest };
}

export class PublicationStore {
  private readonly states = new Map<string, PublicationState>();
  private files = new Map<string, StoredFile>();
  private refreshing: Promise<void> | undefined;
  private again = false;
  private checkedAt = 0;

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
    const owner = this.publications.find((publication) => filePath.startsWith(`${publication.name}/`));
    const unavailable = owner ? this.states.get(owner.name)?.unavailable : undefined;
    return unavailable ? { kind: 'unavailable', ...unavailable } : { kind: 'missing' };
  }

  /** Re-checks the datasets when the last check is older than `maxAgeMs` (another process may have synced). */
  refreshIfOlderThan(maxAgeMs: number): Promise<void> {
    if (Date.now() - this.checkedAt < maxAgeMs) return Promise.resolve();
    return this.refresh();
  }

  /** Regenerates each publication whose datasets have a new load; one run at a time, a call during it runs once more after. */
  refresh(): Promise<void> {
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
      try {
        const started = Date.now();
        const files: StoredFile[] = [];
        // Until every file is produced, the previous ones (if any) stay served.
        for await (const file of publication.produce(services, { host: new URL(config.baseUrl).hostname, year })) {
          if (!file.path.startsWith(`${publication.name}/`)) throw new Error(`${file.path} is outside ${publication.name}/`);
          await giveWay(); // hundreds of files to encode and hash
          files.push(stored(file));
        }
        this.states.set(publication.name, { version, files });
        changed = true;
        if (this.options.writeDir) await writePublication(this.options.writeDir, publication.name, files);
        logger.info({ publication: publication.name, files: files.length, ms: Date.now() - started }, 'publication regenerated');
      } catch (error) {
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
    const index = stored({ path: INDEX_PATH, body: JSON.stringify(this.describe(files)), contentType: JSON_TYPE, rest: '' });
    files.set(INDEX_PATH, index);
    this.files = files;
    if (this.options.writeDir) writeFileAtomically(path.join(this.options.writeDir, INDEX_PATH), index.bytes);
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
        bytes: file.bytes.length,
        etag: file.etag,
        api: `/api/v1${file.rest}`,
      })),
    };
  }
}

/** Replaces DATA_DIR/generated/<name>/ as a whole: written beside it, then swapped in. */
async function writePublication(root: string, name: string, files: readonly StoredFile[]): Promise<void> {
  const target = path.join(root, name);
  const fresh = path.join(root, `.${name}.new`);
  const old = path.join(root, `.${name}.old`);
  await fs.promises.rm(fresh, { recursive: true, force: true });
  for (const file of files) {
    const destination = path.join(fresh, path.relative(name, file.path));
    await fs.promises.mkdir(path.dirname(destination), { recursive: true });
    await fs.promises.writeFile(destination, file.bytes);
  }
  await fs.promises.rm(old, { recursive: true, force: true });
  if (fs.existsSync(target)) await fs.promises.rename(target, old);
  await fs.promises.rename(fresh, target);
  await fs.promises.rm(old, { recursive: true, force: true });
}

function writeFileAtomically(destination: string, bytes: Buffer): void {
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  fs.writeFileSync(`${destination}.new`, bytes);
  fs.renameSync(`${destination}.new`, destination);
}
