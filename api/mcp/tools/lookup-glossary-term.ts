// lookup_glossary_term: plain-language definitions of mortgage terms, with FAQs and links.
import { z } from 'zod';
import { registerToolDefinition, sourceSchema, sourcesText, type ToolContext } from '../tool-kit.ts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const lookupGlossaryTermTool = {
  name: 'lookup_glossary_term',
  title: 'Look up a mortgage term',
  description:
    'Plain-language definition of a mortgage term (131 terms: APR, points, PMI, DTI, LTV, escrow, conforming loan, ' +
    'FHA MIP, VA funding fee, rate lock, ARM caps, HMDA, RESPA, TRID…), with 1–3 FAQs, related terms and links to ' +
    'official sources. Accepts the term, an abbreviation or a close spelling. Use search_content for broader questions.',
  input: {
    term: z.string().min(1).max(100).describe('The term to define, e.g. "APR", "escrow cushion", "loan-to-value ratio".'),
  },
  output: {
    term: z.string().describe('The canonical term.'),
    match: z.enum(['exact', 'closest']).describe('Whether the query matched exactly or as the closest spelling.'),
    definition: z.string().describe('One to three sentences.'),
    explanation: z.string().describe('Longer plain-language explanation (Markdown).'),
    aliases: z.array(z.string()),
    category: z.string(),
    faqs: z.array(z.object({ question: z.string(), answer: z.string() })),
    related: z.array(z.object({ slug: z.string(), term: z.string(), url: z.string() })),
    links: z.array(z.object({ title: z.string(), url: z.string() })),
    url: z.string().describe('Our glossary page for the term.'),
    sources: z.array(sourceSchema),
  },
  async run({ term }: { term: string }, { deps }: ToolContext) {
    const { entry, match } = deps.services.glossary.lookup(term);
    const sources = [
      { url: entry.url, as_of: entry.updated, name: 'Mortgage Data Service glossary' },
      ...entry.links.map((link) => ({ url: link.url, as_of: null, name: link.title })),
    ];
    const structured = {
      term: entry.term,
      match,
      definition: entry.definition,
      explanation: entry.explanation,
      aliases: entry.aliases,
      category: entry.category,
      faqs: entry.faqs,
      related: entry.related,
      links: entry.links,
      url: entry.url,
      sources,
    };
    const text = [
      `${entry.term}${match === 'closest' ? ` (closest match for "${term}")` : ''}: ${entry.definition}`,
      ...entry.faqs.map((faq) => `Q: ${faq.question}\nA: ${faq.answer}`),
      entry.related.length > 0 ? `Related: ${entry.related.map((item) => item.term).join(', ')}` : '',
      sourcesText(sources),
    ].filter(Boolean).join('\n\n');
    return { structured, text };
  },
};

export function registerLookupGlossaryTermTool(server: McpServer, context: ToolContext): void {
  registerToolDefinition(server, lookupGlossaryTermTool, context);
}
