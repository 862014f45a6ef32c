// The glossary's contract: the one declaration of what a lookup accepts and answers. The REST route
// (GET /glossary), the MCP tool lookup_glossary_term, /ask and the service's types derive from it.
import { z } from 'zod';
import { text } from '../platform/contract/lenient.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { GLOSSARY_CATEGORIES } from '../content/schemas.ts';

export const GLOSSARY_TERM_MAX = 100;

export const GlossaryQuerySchema = z.object({
  term: text({ max: GLOSSARY_TERM_MAX, example: 'APR' }).describe('A term or abbreviation, e.g. "APR".'),
});
export type GlossaryQuery = z.infer<typeof GlossaryQuerySchema>;

export const GlossaryEntrySchema = z.object({
  slug: z.string().describe('Identifier of the term; its page is /glossary/<slug>.'),
  term: z.string().describe('The canonical term.'),
  aliases: z.array(z.string()).describe('Other names and abbreviations of the term.'),
  definition: z.string().describe('One to three sentences.'),
  explanation: z.string().describe('Longer plain-language explanation (Markdown).'),
  category: z.enum(GLOSSARY_CATEGORIES),
  faqs: z.array(z.object({ question: z.string(), answer: z.string() })).describe('One to three questions people ask about the term.'),
  related: z.array(z.object({ slug: z.string(), term: z.string(), url: z.string() })).describe('Related terms with their pages.'),
  links: z.array(z.object({ title: z.string(), url: z.string() })).describe('Official sources on the term.'),
  url: z.string().describe('Our glossary page for the term.'),
  updated: z.string().describe('YYYY-MM-DD the entry was last reviewed.'),
});
export type GlossaryEntry = z.infer<typeof GlossaryEntrySchema>;

export const GLOSSARY_MATCHES = ['exact', 'closest'] as const;
export type GlossaryMatch = (typeof GLOSSARY_MATCHES)[number];

/** The answer to one lookup: the entry, how the query matched it, and its sources. */
export const GlossaryAnswerSchema = GlossaryEntrySchema.extend({
  query: z.string().describe('The term as asked.'),
  match: z
    .enum(GLOSSARY_MATCHES)
    .describe('`exact`: the query is the term, an alias or its abbreviation; `closest`: the entry whose words or spelling come closest.'),
  sources: z.array(SourceSchema),
});
export type GlossaryAnswer = z.infer<typeof GlossaryAnswerSchema>;
