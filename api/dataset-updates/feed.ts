// The dataset-updates feed in its two forms: RSS 2.0 (/dataset-updates.xml, with @astrojs/rss as the
// other feeds) and JSON Feed 1.1 (/dataset-updates.json, each item carrying the update's fields under
// `_mortgage_data`). Each item is one published version: the dataset, its new version, as-of, and
// what changed in counts; its link is the update in the API (/api/v1/dataset-updates/{id}).
import { getRssString } from '@astrojs/rss';
import { updateSentence, type DatasetUpdate } from './contract.ts';

/** Items in each feed: the latest versions, about a month of daily refreshes of every dataset. */
export const FEED_ITEMS = 100;

const TITLE = 'Mortgage Data Service: dataset updates';
const DESCRIPTION =
  'Each new version of a dataset this service publishes (rates, loan limits, HMDA, bills, the calendar…): the dataset, ' +
  'its new version and as-of date, and what changed in row counts.';

export const updateUrl = (baseUrl: string, id: number): string => `${baseUrl}/api/v1/dataset-updates/${id}`;

const titleOf = (update: DatasetUpdate) =>
  `${update.dataset}: version ${update.version}${update.as_of === null ? '' : ` (as of ${update.as_of})`}`;

const contentOf = (update: DatasetUpdate) => `${updateSentence(update)} ${update.description}. Source: ${update.source_url}`;

export function renderRss(updates: readonly DatasetUpdate[], baseUrl: string): Promise<string> {
  return getRssString({
    title: TITLE,
    description: DESCRIPTION,
    site: baseUrl,
    trailingSlash: false,
    xmlns: { atom: 'http://www.w3.org/2005/Atom' },
    customData: `<language>en-us</language><atom:link href="${new URL('/dataset-updates.xml', baseUrl).href}" rel="self" type="application/rss+xml"/>`,
    items: updates.map((update) => ({
      title: titleOf(update),
      link: updateUrl(baseUrl, update.id),
      pubDate: new Date(update.published_at),
      description: contentOf(update),
      categories: [update.dataset],
    })),
  });
}

export function renderJsonFeed(updates: readonly DatasetUpdate[], baseUrl: string): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: TITLE,
    description: DESCRIPTION,
    home_page_url: baseUrl,
    feed_url: `${baseUrl}/dataset-updates.json`,
    language: 'en-US',
    items: updates.map((update) => ({
      id: updateUrl(baseUrl, update.id),
      url: updateUrl(baseUrl, update.id),
      external_url: update.source_url,
      title: titleOf(update),
      content_text: contentOf(update),
      date_published: update.published_at,
      tags: [update.dataset],
      _mortgage_data: update,
    })),
  });
}
