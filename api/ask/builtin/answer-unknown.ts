// The honest answer when no tool has the figure: say so, and list what can be answered.
import type { Composer } from './draft.ts';

export const CAPABILITIES = [
  "today's mortgage rates by state, credit score and down payment (with the weekly national survey and the daily market benchmark)",
  'conforming, FHA, VA and USDA loan limits for any county and year',
  'how many months of escrow are collected at closing, by state and closing month',
  'what a mortgage term means (131 glossary terms)',
  'upcoming Federal Reserve meetings and economic data releases',
  'HMDA facts: approval and denial rates, FHA share, loan counts and top lenders',
];

export const answerUnknown: Composer = async ({ deps }) => ({
  text:
    "I don't have data that answers that question, so I won't guess. I can answer questions about:\n\n" +
    CAPABILITIES.map((item) => `- ${item}`).join('\n') +
    `\n\nSee ${deps.config.baseUrl}/ai-info-page for what the data covers.`,
  sources: [`${deps.config.baseUrl}/ai-info-page`],
});
