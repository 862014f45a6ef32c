// MCP resources: every glossary term, tracked bill and article/learn page as a readable resource
// (listed a page at a time, so clients can browse), and templates for a county (by FIPS code) and a
// county's loan limits. Template variables complete as the user types (`completion/complete`, ./completions.ts):
// glossary slugs, bill ids, FIPS codes, states and the counties of a state.
import { ProtocolError, ProtocolErrorCode, ResourceTemplate, type McpServer, type Resource } from '@modelcontextprotocol/server';
import type { CoreDeps } from '../platform/core-deps.ts';
import type { UsesServices } from '../domain-services.ts';
import { readArticles } from '../content/markdown.ts';
import { NotFoundError } from '../platform/errors.ts';
import { BILLS_LIMIT_DEFAULT } from '../bills/contract.ts';
import { TERRITORIES, findState } from '../geo/states.ts';
import { billsAnswerText, loanLimitsText, sourcesText } from './answer-text.ts';
import { completeBillId, completeGlossarySlug, completeState, completing, countyDirectory, stateCodeOf } from './completions.ts';
import { isoDay } from '../platform/dates.ts';

/** What the resources read: links on the base URL, the logger for faults, and the services they list. */
type ResourceDeps = Pick<CoreDeps, 'config' | 'logger'> &
  UsesServices<'bills' | 'datasets' | 'glossary' | 'loanLimits' | 'research' | 'series'>;

function articleResources(deps: ResourceDeps) {
  const pages = [
    ...readArticles(undefined, 'articles').map((entry) => ({ collection: 'articles' as const, entry })),
    ...readArticles(undefined, 'learn').map((entry) => ({ collection: 'learn' as const, entry })),
  ];
  return pages.map(({ collection, entry }) => ({
    uri: `mds://${collection}/${entry.slug}`,
    name: entry.slug,
    title: entry.data.title,
    description: entry.data.description,
    mimeType: 'text/markdown',
    url: `${deps.config.baseUrl}/${collection}/${entry.slug}`,
    body: entry.body,
    date: isoDay(entry.data.date),
  }));
}

/** A template variable as the SDK hands it over (one value, or several for an exploded variable). */
function single(value: string | string[] | undefined): string {
  const raw = String(Array.isArray(value) ? value[0] : (value ?? ''));
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a stray "%" is left as written; the lookup then says nothing matches
  }
}

/** One kind of listed resource: every one of them, in a stable order. */
type ResourceList = () => Promise<Resource[]>;

function registerGlossary(server: McpServer, deps: ResourceDeps): ResourceList {
  const glossary = deps.services.glossary;
  const list: ResourceList = async () =>
    glossary.all().map((entry) => ({
      uri: `mds://glossary/${entry.slug}`,
      name: entry.slug,
      title: entry.term,
      description: entry.definition,
      mimeType: 'text/markdown',
    }));
  server.registerResource(
    'glossary-term',
    new ResourceTemplate('mds://glossary/{slug}', {
      list: async () => ({ resources: await list() }),
      complete: { slug: completing(deps, (typed) => completeGlossarySlug(deps, typed)) },
    }),
    {
      title: 'Glossary term',
      description: 'A plain-language definition with FAQs and links, e.g. mds://glossary/escrow-cushion.',
      mimeType: 'text/markdown',
    },
    async (uri, { slug }) => {
      const { entry } = glossary.lookup(single(slug));
      const faqs = entry.faqs.map((faq) => `**${faq.question}** ${faq.answer}`).join('\n\n');
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/markdown',
            text: `# ${entry.term}\n\n${entry.definition}\n\n${entry.explanation}\n\n${faqs}\n\nSource: ${entry.url}`,
          },
        ],
      };
    },
  );
  return list;
}

function registerBills(server: McpServer, deps: ResourceDeps): ResourceList {
  const list: ResourceList = async () => {
    try {
      const bills = await deps.services.bills.list();
      return bills.map((bill) => ({
        uri: `mds://bills/${bill.bill_id}`,
        name: bill.bill_id,
        title: `${bill.citation}: ${bill.short_title || bill.title}`,
        description: `${bill.status_label}; latest action ${bill.latest_action.date}.`,
        mimeType: 'application/json',
      }));
    } catch (error) {
      // Before the first bills sync the other resources are still listed.
      if ((error as { status?: unknown }).status !== 503) deps.logger.warn({ err: error }, 'mcp: listing bills failed');
      return [];
    }
  };
  server.registerResource(
    'congress-bill',
    new ResourceTemplate('mds://bills/{bill_id}', {
      list: async () => ({ resources: await list() }),
      complete: { bill_id: completing(deps, (typed) => completeBillId(deps, typed)) },
    }),
    {
      title: 'A tracked bill',
      description: 'One tracked housing bill in full (status, sponsors, actions, summary, our analysis), e.g. mds://bills/hr1532-117.',
      mimeType: 'application/json',
    },
    async (uri, { bill_id }) => {
      const answer = await deps.services.bills.answer({ bill_id: single(bill_id), limit: BILLS_LIMIT_DEFAULT });
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(answer, null, 2) },
          { uri: `${uri.href}#text`, mimeType: 'text/plain', text: billsAnswerText(answer) },
        ],
      };
    },
  );
  return list;
}

function registerCounties(server: McpServer, deps: ResourceDeps): void {
  const counties = countyDirectory(deps);
  server.registerResource(
    'county',
    new ResourceTemplate('mds://counties/{fips}', {
      list: undefined,
      complete: { fips: completing(deps, (typed) => counties.fipsCodes(typed)) },
    }),
    {
      title: 'A county by FIPS code',
      description: "A county's Census name and state from its 5-digit FIPS code, and where its data is, e.g. mds://counties/06037.",
      mimeType: 'application/json',
    },
    async (uri, { fips }) => {
      const code = single(fips);
      const county = await counties.county(code);
      if (!county)
        throw new NotFoundError(
          `No county has the FIPS code ${JSON.stringify(code.slice(0, 20))}; give 5 digits, e.g. 06037 (Los Angeles County, CA).`,
        );
      const record = (await deps.services.datasets.list()).find((entry) => entry.name === 'counties');
      const body = {
        fips: county.fips,
        name: county.name,
        state: county.state,
        state_name: findState(county.state)?.name ?? TERRITORIES[county.state as keyof typeof TERRITORIES] ?? county.state,
        kind: county.kind,
        note: county.note,
        loan_limits: `mds://loan-limits/${county.state}/${county.fips}`,
        sources: [{ url: record?.sourceUrl ?? '', as_of: record?.asOf ?? null, name: 'U.S. Census Bureau county list' }],
      };
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
    },
  );

  server.registerResource(
    'county-loan-limits',
    new ResourceTemplate('mds://loan-limits/{state}/{county}', {
      list: undefined,
      complete: {
        state: completing(deps, (typed) => completeState(typed, { territories: true })),
        county: completing(deps, async (typed, context) => {
          const state = stateCodeOf(context?.arguments?.state);
          return state ? counties.counties(state, typed) : [];
        }),
      },
    }),
    {
      title: "A county's loan limits",
      description:
        'Conforming, FHA, VA and USDA limits for one county this year, e.g. mds://loan-limits/CA/06037 or mds://loan-limits/TX/Travis.',
      mimeType: 'application/json',
    },
    async (uri, { state, county }) => {
      const result = await deps.services.loanLimits.getLoanLimits({ state: single(state), county: single(county) });
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(result, null, 2) },
          { uri: `${uri.href}#text`, mimeType: 'text/plain', text: loanLimitsText(result) },
        ],
      };
    },
  );
}

function registerArticles(server: McpServer, deps: ResourceDeps): ResourceList {
  let pages: ReturnType<typeof articleResources> | undefined;
  const allPages = () => (pages ??= articleResources(deps));
  const list: ResourceList = async () =>
    allPages().map(({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType }));
  server.registerResource(
    'article',
    new ResourceTemplate('mds://{collection}/{slug}', {
      list: async () => ({ resources: await list() }),
    }),
    { title: 'Article or learn page', description: 'One of our articles or learn guides, as Markdown.', mimeType: 'text/markdown' },
    async (uri) => {
      const page = allPages().find((candidate) => candidate.uri === uri.href);
      if (!page) throw new NotFoundError(`No article at ${uri.href}; list resources to see them.`);
      return {
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: `# ${page.title}\n\n_${page.date}_ · ${page.url}\n\n${page.body}` }],
      };
    },
  );
  return list;
}

/**
 * The research pages (/research/<state>, /research/<state>/<county>) as resources, so every page
 * search_content finds reads over MCP: the profile as JSON and its sentences as text.
 */
function registerResearch(server: McpServer, deps: ResourceDeps): void {
  server.registerResource(
    'research',
    new ResourceTemplate('mds://research/{+path}', { list: undefined }),
    {
      title: 'Research page of a state or county',
      description: 'A state or county profile as the page /research/<state>[/<county>] shows it, e.g. mds://research/nevada/clark-county.',
      mimeType: 'application/json',
    },
    async (uri, { path }) => {
      const [state, county, ...rest] = single(path).split('/').filter(Boolean);
      if (!state || rest.length > 0)
        throw new NotFoundError(`No research page at ${uri.href}: give mds://research/<state> or mds://research/<state>/<county>.`);
      const profile = county ? await deps.services.research.countyBySlug(state, county) : await deps.services.research.stateBySlug(state);
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(profile) },
          { uri: `${uri.href}#text`, mimeType: 'text/plain', text: [...profile.analysis, sourcesText(profile.sources)].join('\n') },
        ],
      };
    },
  );
}

/** Resources per `resources/list` page: a page stays a few thousand tokens (glossary entries carry their definition). */
export const RESOURCES_PAGE_SIZE = 50;

/** The opaque cursor of the page starting at `offset`. */
const cursorAt = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString('base64url');

function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  let offset: unknown;
  try {
    offset = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown }).offset;
  } catch {
    offset = undefined;
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'Invalid cursor: pass the nextCursor of the previous resources/list page, or none for the first page.',
    );
  }
  return offset;
}

/**
 * The series listed after the documents: the nation's and the states' (rates, outstanding-mortgage
 * rates by state, national loan limits, HMDA totals and shares). A county's series are the template
 * `mds://series/{+id}` and find_series: listing 300,000 of them would drown the rest.
 */
const LISTED_SERIES_FAMILIES = ['pmms', 'optimal-blue', 'loan-limits-national', 'nmdb', 'hmda'] as const;

/** Every series of the listed families, as resources (none of a family whose dataset is not loaded). */
async function seriesResources(deps: ResourceDeps): Promise<Resource[]> {
  const resources: Resource[] = [];
  for (const family of LISTED_SERIES_FAMILIES) {
    for (let offset = 0; ; offset += 1000) {
      let page;
      try {
        page = await deps.services.series.catalogue({ family, limit: 1000, offset });
      } catch {
        break; // not loaded: the family is left out until it is
      }
      for (const series of page.series)
        resources.push({
          uri: `mds://series/${series.id}`,
          name: series.id,
          title: series.title,
          description: `${series.units}, ${series.frequency}, ${series.first_date ?? '?'} to ${series.last_date ?? '?'}, as of ${series.as_of ?? 'n/a'}`,
          mimeType: 'application/json',
        });
      if (offset + page.series.length >= page.total || page.series.length === 0) break;
    }
  }
  return resources;
}

/** How long the listed series are reused: a client pages through them in seconds; a sync changes them daily. */
const SERIES_LIST_TTL_MS = 60_000;

/**
 * `resources/list` a page at a time (the SDK's own handler answers every resource at once): each
 * page says where the next starts in `nextCursor`. The cursor holds an offset into the list (the
 * documents, then the series), which is the same on every instance, so a stateless server can
 * answer any page.
 */
function registerResourcePages(server: McpServer, deps: ResourceDeps, lists: readonly ResourceList[]): void {
  let series: { at: number; resources: Promise<Resource[]> } | undefined;
  const listedSeries = () => {
    if (!series || Date.now() - series.at > SERIES_LIST_TTL_MS) series = { at: Date.now(), resources: seriesResources(deps) };
    return series.resources;
  };
  server.server.setRequestHandler('resources/list', async (request) => {
    const offset = offsetOf(request.params?.cursor);
    const all = [...(await Promise.all(lists.map((list) => list()))).flat(), ...(await listedSeries())];
    if (offset > all.length)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: the list holds ${all.length} resources.`);
    const end = offset + RESOURCES_PAGE_SIZE;
    return { resources: all.slice(offset, end), ...(end < all.length ? { nextCursor: cursorAt(end) } : {}) };
  });
}

export function registerResources(server: McpServer, deps: ResourceDeps): void {
  const glossary = registerGlossary(server, deps);
  const bills = registerBills(server, deps);
  registerCounties(server, deps);
  registerResearch(server, deps);
  // Last: its `mds://{collection}/{slug}` would also match the bill and county addresses, and a
  // read goes to the first template that matches.
  const articles = registerArticles(server, deps);
  registerResourcePages(server, deps, [glossary, bills, articles]);
}
