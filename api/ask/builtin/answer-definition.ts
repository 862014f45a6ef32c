// "What is PMI?": the glossary definition with its FAQs; when no term matches, the best articles.
import type { Composer, AnswerDraft } from './draft.ts';
import { answerFromSearch } from './answer-search.ts';

/** The phrase a definition question asks about: "what does escrow cushion mean" → "escrow cushion". */
export function definitionSubject(question: string): string {
  return question
    .replace(/[?!.]+$/g, '')
    .replace(/^.*?\b(what is|what's|what are|what does|define|definition of|meaning of|explain|how does|how do)\b\s*/i, '')
    .replace(/^(an?|the)\s+/i, '')
    .replace(/\s+(mean|means|stand for|work|works|do)$/i, '')
    .replace(/\s+(in|on|for) (a |my )?(mortgage|home loan|loan)s?$/i, '')
    .trim();
}

export const answerDefinition: Composer = async (input) => {
  const subject = definitionSubject(input.question);
  if (subject) {
    try {
      const { entry } = input.deps.services.glossary.lookup(subject);
      const faq = entry.faqs[0];
      const draft: AnswerDraft = {
        text: [
          `**${entry.term}**: ${entry.definition}`,
          faq ? `${faq.question} ${faq.answer}` : '',
          entry.related.length > 0
            ? `Related terms: ${entry.related
                .slice(0, 4)
                .map((item) => item.term)
                .join(', ')}.`
            : '',
          `More in our glossary: ${entry.url}`,
        ]
          .filter(Boolean)
          .join('\n\n'),
        sources: [entry.url, ...entry.links.map((link) => link.url)],
      };
      return draft;
    } catch {
      // Not a glossary term: fall through to the articles.
    }
  }
  return answerFromSearch(input);
};
