// MCP resources: every glossary term and every article/learn page as a readable Markdown resource
// (listed, so clients can browse), and a template for a county's loan limits.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AppDeps } from '../deps.ts';
import { readArticles } from '../content/markdown.ts';
import { NotFoundError } from '../platform/http/errors.ts';
import { loanLimitsText } from './tools/get-loan-limits.ts';

function articleResources(deps: AppDeps) {
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
    date: entry.data.date.toISOString().slice(0, 10),
  }));
}

export function registerResources(server: McpServer, deps: AppDeps): void {
  const glossary = deps.services.glossary;
  server.registerResource(
    'glossary-term',
    new ResourceTemplate('mds://glossary/{slug}', {
      list: async () => ({
        resources: glossary.all().map((entry) => ({
          uri: `mds://glossary/${entry.slug}`,
          name: entry.slug,
          title: entry.term,
          description: entry.definition,
          mimeType: 'text/markdown',
        })),
      }),
      complete: { slug: (value) => glossary.all().map((entry) => entry.slug).filter((slug) => slug.startsWith(value)).slice(0, 20) },
    }),
    { title: 'Glossary term', description: 'A plain-language definition with FAQs and links.', mimeType: 'text/markdown' },
    async (uri, { slug }) => {
      const { entry } = glossary.lookup(String(slug));
      const faqs = entry.faqs.map((faq) => `**${faq.question}** ${faq.answer}`).join('\n\n');
      return {
        contents: [
          { uri: uri.href, mimeType: 'text/markdown', text: `# ${entry.term}\n\n${entry.definition}\n\n${entry.explanation}\n\n${faqs}\n\nSource: ${entry.url}` },
        ],
      };
    },
  );

  let pages: ReturnType<typeof articleResources> | undefined;
  const allPages = () => (pages ??= articleResources(deps));
  server.registerResource(
    'article',
    new ResourceTemplate('mds://{collection}/{slug}', {
      list: async () => ({ resources: allPages().map(({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType })) }),
    }),
    { title: 'Article or learn page', description: 'One of our articles or learn guides, as Markdown.', mimeType: 'text/markdown' },
    async (uri) => {
      const page = allPages().find((candidate) => candidate.uri === uri.href);
      if (!page) throw new NotFoundError(`No article at ${uri.href}; list resources to see them.`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: `# ${page.title}\n\n_${page.date}_ · ${page.url}\n\n${page.body}` }] };
    },
  );

  server.registerResource(
    'county-loan-limits',
    new ResourceTemplate('mds://loan-limits/{state}/{county}', { list: undefined }),
    {
      title: "A county's loan limits",
      description: 'Conforming, FHA, VA and USDA limits for one county this year, e.g. mds://loan-limits/CA/06037 or mds://loan-limits/TX/Travis.',
      mimeType: 'application/json',
    },
    async (uri, { state, county }) => {
      const result = await deps.services.loanLimits.getLoanLimits({ state: String(state), county: decodeURIComponent(String(county)) });
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(result, null, 2) },
          { uri: `${uri.href}#text`, mimeType: 'text/plain', text: loanLimitsText(result) },
        ],
      };
    },
  );
}
