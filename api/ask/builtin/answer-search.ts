// Questions no data tool answers directly: the most relevant of our articles, learn pages and
// glossary entries, with their excerpts. Says plainly when nothing matches.
import type { Composer } from './draft.ts';
import { answerUnknown } from './answer-unknown.ts';

const stripMarks = (html: string): string =>
  html
    .replace(/<\/?mark>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

export const answerFromSearch: Composer = async (input) => {
  const query = input.question
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .trim()
    .slice(0, 200);
  if (!query) return answerUnknown(input);
  const { results } = await input.deps.services.search.search({ query, limit: 3 });
  if (results.length === 0) return answerUnknown(input);
  const lines = results.map((result) => `- **${result.title}** — ${stripMarks(result.excerpt)} (${result.url})`);
  return {
    text: ['Here is what our articles and glossary say about that:', ...lines].join('\n\n'),
    sources: results.map((result) => result.url),
  };
};
