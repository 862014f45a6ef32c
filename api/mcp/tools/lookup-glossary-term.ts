// lookup_glossary_term: plain-language definitions of mortgage terms, with FAQs and links. The
// schemas are the glossary contract's, shared with GET /glossary.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { GlossaryAnswerSchema, GlossaryQuerySchema, type GlossaryAnswer } from '../../glossary/contract.ts';

/** The answer as text: the definition (saying when the match was not exact), FAQs, related terms, sources. */
export function glossaryAnswerText(answer: GlossaryAnswer): string {
  return [
    `${answer.term}${answer.match === 'closest' ? ` (closest match for "${answer.query}")` : ''}: ${answer.definition}`,
    ...answer.faqs.map((faq) => `Q: ${faq.question}\nA: ${faq.answer}`),
    answer.related.length > 0 ? `Related: ${answer.related.map((item) => item.term).join(', ')}` : '',
    sourcesText(answer.sources),
  ]
    .filter(Boolean)
    .join('\n\n');
}

export const lookupGlossaryTermTool = defineTool({
  name: 'lookup_glossary_term',
  title: 'Glossary',
  description: 'A mortgage term in plain words, with FAQs and related terms. Broader questions: search_content.',
  inputSchema: GlossaryQuerySchema,
  outputSchema: GlossaryAnswerSchema,
  uses: ['glossary'],
  async run({ term }, { deps }) {
    const answer = deps.services.glossary.answer(term);
    return { structured: answer, text: glossaryAnswerText(answer) };
  },
});
