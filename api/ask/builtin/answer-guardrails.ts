// Guardrails: no personalised financial or legal advice, and no collection of personal data. The
// answer explains the limit and points to what the data can show.
import type { Composer } from './draft.ts';
import { answerFromSearch } from './answer-search.ts';

export const answerPersonalData: Composer = async ({ deps }) => ({
  text:
    'Please do not share personal information such as Social Security, account or passport numbers here: ' +
    'this service does not need it, does not store it, and cannot use it. Ask your question in general terms ' +
    '(for example "FHA loan limit in Travis County, Texas" or "rates for a 740 score with 10% down") and I will answer from public data.',
  sources: [`${deps.config.baseUrl}/ai-info-page`],
});

export const answerAdvice: Composer = async (input) => {
  const related = await answerFromSearch(input);
  return {
    text:
      "I can't tell you what you personally should do: that depends on your finances and goals, and is a question for a " +
      'licensed loan officer or a HUD-approved housing counselor. What I can give you is the public data and explainers that bear on it.\n\n' +
      related.text,
    sources: related.sources,
  };
};
