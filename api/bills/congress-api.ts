// Reads a bill from the congress.gov API v3 (Library of Congress): the bill detail plus its actions,
// cosponsors, committees, summaries, subjects and titles, following `pagination.next` page by page.
// The key travels in the X-Api-Key header, and `next` links are only followed on the API's own
// origin, so the key never reaches another host.
import { createHash } from 'node:crypto';
import { SourceFormatError, SourceUnavailableError } from '../sync/errors.ts';
import { congressApiBillPath, type BillRef } from './bill-id.ts';
import { latestSummary, officialTitle, toAction, toMember } from './billstatus-xml.ts';
import { bool, htmlToText, list, node, sortActions, str, type Node } from './normalize.ts';
import { deriveStatus } from './status.ts';
import type { BillAction, BillRecord } from './types.ts';

export const CONGRESS_API_BASE_URL = 'https://api.congress.gov/v3';

export interface CongressApiOptions {
  /** e.g. https://api.congress.gov/v3 (tests point it at a local server). */
  baseUrl: string;
  apiKey: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  /** Items asked for per page (the API allows up to 250). */
  pageSize?: number;
  /** Stops a misbehaving `next` chain. */
  maxPages?: number;
}

export interface ApiBill {
  record: BillRecord;
  /** sha256 over every response body read, in order. */
  checksum: string;
  requests: number;
}

type ListResource = 'actions' | 'cosponsors' | 'committees' | 'summaries' | 'subjects' | 'titles';

export async function fetchBillFromApi(ref: BillRef, options: CongressApiOptions): Promise<ApiBill> {
  const client = new ApiClient(options);
  const billUrl = `${client.base}${congressApiBillPath(ref)}`;
  const detail = node((await client.getJson(billUrl)).bill);
  if (Object.keys(detail).length === 0) throw new SourceFormatError(billUrl, undefined, 'response has no "bill" object');

  // One resource after another: the checksum covers the bodies in a fixed order.
  const pages: Record<ListResource, Node[]> = { actions: [], cosponsors: [], committees: [], summaries: [], subjects: [], titles: [] };
  for (const resource of Object.keys(pages) as ListResource[]) {
    pages[resource] = await client.getAllPages(`${billUrl}/${resource}`, (page) => itemsOf(page, resource));
  }
  const { actions, cosponsors, committees, summaries, subjects: subjectPages, titles } = pages;

  const committeeList = committees.map((item) => ({
    systemCode: str(item.systemCode),
    name: str(item.name) ?? '',
    chamber: str(item.chamber),
    activities: list(item.activities).map((activity) => ({ name: str(activity.name) ?? '', date: str(activity.date) })),
  }));
  const actionList = sortActions(
    // The API's action items have the BILLSTATUS XML's field names.
    actions.map(toAction).filter((action): action is BillAction => action !== null),
  );
  const titleList = titles
    .map((item) => ({ type: str(item.titleType) ?? '', title: str(item.title) ?? '' }))
    .filter((item) => item.title !== '');
  const laws = list(detail.laws)
    .map((item) => ({ type: str(item.type) ?? 'Public Law', number: str(item.number) ?? '' }))
    .filter((law) => law.number !== '');
  const latest = node(detail.latestAction);
  const latestDate = str(latest.actionDate);
  const latestText = str(latest.text);

  const record: BillRecord = {
    ...ref,
    title: str(detail.title) ?? '',
    officialTitle: officialTitle(titleList),
    titles: titleList,
    originChamber: str(detail.originChamber),
    introducedDate: str(detail.introducedDate),
    updateDate: str(detail.updateDate),
    sponsor: list(detail.sponsors).map(toMember)[0] ?? null,
    cosponsors: cosponsors.map((item) => ({
      ...toMember(item),
      sponsorshipDate: str(item.sponsorshipDate),
      isOriginalCosponsor: bool(item.isOriginalCosponsor),
      withdrawnDate: str(item.sponsorshipWithdrawnDate),
    })),
    committees: committeeList,
    actions: actionList,
    latestAction: latestDate !== null && latestText !== null ? { date: latestDate, text: latestText } : null,
    summary: latestSummary(
      summaries.map((item) => ({
        versionCode: str(item.versionCode),
        actionDate: str(item.actionDate),
        actionDesc: str(item.actionDesc),
        updateDate: str(item.updateDate),
        text: htmlToText(str(item.text) ?? ''),
      })),
    ),
    policyArea: str(node(detail.policyArea).name),
    subjects: subjectPages.map((item) => str(item.name)).filter((name): name is string => name !== null),
    laws,
    status: deriveStatus({ actions: actionList, committeeCount: committeeList.length, lawCount: laws.length }),
    sourceFormat: 'congress-api-v3',
  };
  return { record, checksum: client.checksum(), requests: client.requests };
}

/**
 * Every item of a paginated list below the API base (e.g. `/law/119`), as `pick` finds them on each
 * page; with the checksum over the pages read.
 */
export async function listFromApi(
  resourcePath: string,
  pick: (page: Node) => Node[],
  options: CongressApiOptions,
): Promise<{ items: Node[]; checksum: string }> {
  const client = new ApiClient(options);
  const items = await client.getAllPages(`${client.base}${resourcePath}`, pick);
  return { items, checksum: client.checksum() };
}

class ApiClient {
  readonly base: string;
  requests = 0;
  private readonly origin: string;
  private readonly hash = createHash('sha256');
  private readonly options: Required<Omit<CongressApiOptions, 'fetchImpl'>> & { fetchImpl: typeof fetch };

  constructor(options: CongressApiOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.base).origin;
    this.options = {
      baseUrl: this.base,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 30_000,
      pageSize: options.pageSize ?? 250,
      maxPages: options.maxPages ?? 200,
      fetchImpl: options.fetchImpl ?? fetch,
    };
  }

  checksum(): string {
    return this.hash.copy().digest('hex');
  }

  async getJson(url: string): Promise<Node> {
    const target = new URL(url);
    if (target.origin !== this.origin) {
      throw new SourceFormatError(url, undefined, `the API pointed to another host (${target.origin}); refusing to send the key there`);
    }
    if (!target.searchParams.has('format')) target.searchParams.set('format', 'json');
    let response: Response;
    try {
      response = await this.options.fetchImpl(target, {
        headers: { 'X-Api-Key': this.options.apiKey, Accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new SourceUnavailableError(`congress.gov API unreachable at ${publicUrl(target)}: ${(error as Error).message}`);
    }
    this.requests += 1;
    const body = await response.text();
    if (response.status === 404) throw new SourceUnavailableError(`congress.gov API has no record at ${publicUrl(target)} (404)`);
    if (response.status === 401 || response.status === 403) {
      throw new SourceUnavailableError(`congress.gov API refused the key (${response.status}); check CONGRESS_API_KEY`);
    }
    if (!response.ok) throw new SourceUnavailableError(`congress.gov API answered ${response.status} for ${publicUrl(target)}`);
    this.hash.update(body);
    try {
      return node(JSON.parse(body));
    } catch {
      throw new SourceFormatError(publicUrl(target), undefined, 'response is not JSON');
    }
  }

  /** Every item of a paginated list resource, following `pagination.next` until it is absent. */
  async getAllPages(url: string, pick: (page: Node) => Node[]): Promise<Node[]> {
    const first = new URL(url);
    first.searchParams.set('format', 'json');
    first.searchParams.set('offset', '0');
    first.searchParams.set('limit', String(this.options.pageSize));
    const items: Node[] = [];
    const seen = new Set<string>();
    let next: string | null = first.toString();
    while (next !== null) {
      if (seen.has(next) || seen.size >= this.options.maxPages) {
        throw new SourceFormatError(publicUrl(new URL(next)), undefined, `pagination does not end (${seen.size} pages read)`);
      }
      seen.add(next);
      const page = await this.getJson(next);
      items.push(...pick(page));
      next = str(node(page.pagination).next);
    }
    return items;
  }
}

/** The list inside a page: `{actions:[…]}`, and for subjects `{subjects:{legislativeSubjects:[…]}}`. */
function itemsOf(page: Node, resource: ListResource): Node[] {
  if (resource === 'subjects') return list(node(page.subjects).legislativeSubjects);
  return list(page[resource]);
}

/** A URL fit for logs and error messages: never the key. */
function publicUrl(url: URL): string {
  const copy = new URL(url);
  copy.searchParams.delete('api_key');
  return copy.toString();
}
