// MCP change notices at 2026-07-28: when a sync publishes a new version of a dataset, each open
// `subscriptions/listen` stream that asked for a resource read from it hears
// `notifications/resources/updated`, and one that asked for the resource list hears
// `notifications/resources/list_changed` when the tracked bills change. The SDK owns the streams
// (acknowledgement, filtering, subscription ids); this module knows which URIs are followed (read
// from each listen request as it arrives, until its stream closes) and which datasets each is read
// from (./resource-datasets.ts). Every instance tells its own streams: each learns of every version
// (api/dataset-updates/service.ts).
import type { ServerResponse } from 'node:http';
import type { ServerNotifier } from '@modelcontextprotocol/server';
import type { UsesServices } from '../domain-services.ts';
import type { DatasetUpdate } from '../dataset-updates/contract.ts';
import { datasetsOfResource } from './resource-datasets.ts';

type NoticeDeps = UsesServices<'datasetUpdates' | 'series'>;

/** The datasets whose new versions change `resources/list` (the tracked bills are listed there). */
const LISTED_DATASETS: ReadonlySet<string> = new Set(['bills']);
/** URIs followed per stream, and in all: beyond, a listen request's further URIs hear nothing. */
const PER_STREAM = 100;
const IN_ALL = 10_000;

interface Followed {
  streams: number;
  datasets: Promise<readonly string[] | undefined>;
}

export interface ChangeNotices {
  /** Follows the URIs of a `subscriptions/listen` request until its response (the stream) closes. */
  follow(body: unknown, res: ServerResponse): void;
  /** URIs followed now (tests, the bench). */
  readonly followed: number;
}

/** The resource URIs a listen request asks to hear about. */
function listenedUris(body: unknown): string[] {
  const request = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (request?.method !== 'subscriptions/listen') return [];
  const uris = request.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? [...new Set(uris.filter((uri): uri is string => typeof uri === 'string'))].slice(0, PER_STREAM) : [];
}

export function followChangeNotices(deps: NoticeDeps, notify: ServerNotifier): ChangeNotices {
  const followed = new Map<string, Followed>();

  deps.services.datasetUpdates.onPublished((update: DatasetUpdate) => {
    for (const [uri, entry] of followed) {
      void entry.datasets.then((datasets) => {
        if (datasets?.includes(update.dataset) && followed.has(uri)) notify.resourceUpdated(uri);
      });
    }
    if (LISTED_DATASETS.has(update.dataset)) notify.resourcesChanged();
  });

  return {
    follow(body, res) {
      const uris = listenedUris(body).filter((uri) => followed.has(uri) || followed.size < IN_ALL);
      if (uris.length === 0) return;
      for (const uri of uris) {
        const entry = followed.get(uri);
        if (entry !== undefined) entry.streams += 1;
        else followed.set(uri, { streams: 1, datasets: datasetsOfResource(deps, uri).catch(() => undefined) });
      }
      res.once('close', () => {
        for (const uri of uris) {
          const entry = followed.get(uri);
          if (entry !== undefined && --entry.streams === 0) followed.delete(uri);
        }
      });
    },
    get followed() {
      return followed.size;
    },
  };
}
