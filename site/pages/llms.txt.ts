// GET /llms.txt: a Markdown map of the site for language models (llmstxt.org format), from the
// same catalog as /ai-info-page and brand-facts.json plus the content collections.
import { buildConfig } from '../views/addresses.ts';
import { serviceCatalog } from '../views/site-info.ts';
import { sortedEntries, sortedGlossary } from '../lib/content.ts';

export async function GET(): Promise<Response> {
  const catalog = serviceCatalog(buildConfig());
  const site = catalog.baseUrl;
  const [articles, learn, glossary] = await Promise.all([
    sortedEntries('articles'),
    sortedEntries('learn'),
    sortedGlossary(),
  ]);
  const lines = [
    `# ${catalog.name}`,
    '',
    `> ${catalog.description}`,
    '',
    `${catalog.terms} Status: ${catalog.status}. ${catalog.license}`,
    '',
    `Cite as: ${catalog.citation.preferred}`,
    '',
    '## API and tools',
    '',
    `- [API documentation](${site}/docs/api): every endpoint with its parameters`,
    `- [OpenAPI 3.1 document](${catalog.documentation.openapi})`,
    `- [Information for AI models](${site}/ai-info-page): how to cite, endpoints, MCP tools`,
    `- [Brand facts](${site}/.well-known/brand-facts.json): data sources with publishers and as-of dates`,
    ...catalog.endpoints.map((endpoint) => `- ${endpoint.method} ${endpoint.url}: ${endpoint.summary}`),
    `- MCP server at ${catalog.mcp.url}: ${catalog.mcp.tools.map((tool) => tool.name).join(', ')}`,
    '',
    '## Articles',
    '',
    ...articles.map((entry) => `- [${entry.data.title}](${site}/articles/${entry.id}): ${entry.data.description}`),
    '',
    '## Learn',
    '',
    ...learn.map((entry) => `- [${entry.data.title}](${site}/learn/${entry.id}): ${entry.data.description}`),
    '',
    '## Glossary',
    '',
    ...glossary.map((entry) => `- [${entry.data.term}](${site}/glossary/${entry.id}): ${entry.data.definition}`),
    '',
    '## Optional',
    '',
    `- [Market updates](${site}/news): weekly posts generated from the rate data`,
    `- [Tracked bills](${site}/bills): congressional housing and mortgage bills`,
    `- [Articles feed](${site}/feed.xml), [market updates feed](${site}/news-feed.xml), ` +
      `[dataset updates feed](${site}/dataset-updates.xml) ` +
      `([JSON Feed](${site}/dataset-updates.json)), [sitemap](${site}/sitemap.xml)`,
    '',
  ];
  return new Response(lines.join('\n'), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
