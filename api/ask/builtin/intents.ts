// Which kind of question this is. Ordered rules over keywords: the first that matches wins, so the
// more specific questions (escrow months, loan limits) come before the general ones (rates, terms).
import { isSeriesQuestion } from './answer-series.ts';

export type Intent =
  'escrow' | 'loan_limits' | 'rates' | 'calendar' | 'hmda' | 'series' | 'definition' | 'advice' | 'personal_data' | 'search';

const RULES: Array<{ intent: Intent; test: { test(question: string): boolean } }> = [
  // Guardrails first: requests for a personal recommendation or that hand over personal data.
  {
    intent: 'personal_data',
    test: /\b(my|our)\s+(ssn|social security|account number|bank account|date of birth|passport)\b|\b\d{3}-\d{2}-\d{4}\b/i,
  },
  // A rate, limit or HMDA figure over a span of time, or a rate in a past month or year.
  { intent: 'series', test: { test: isSeriesQuestion } },
  {
    intent: 'escrow',
    test: /\bescrow\b.*\b(month|months|closing|close|cushion|how much|how many|withh?old|collect|prepaid)\b|\b(months?|how many)\b.*\bescrow\b/i,
  },
  {
    intent: 'loan_limits',
    test: /\b(loan|conforming|fha|va|usda|jumbo|lending|borrowing)\s+limits?\b|\blimits?\b.*\b(county|conforming|fha|va|loan)\b|\bmax(imum)?\s+(loan|mortgage)\s+(amount|size)\b|\bhow much can i borrow with an? (fha|va|conforming)\b/i,
  },
  {
    intent: 'calendar',
    test: /\b(fomc|fed(eral reserve)?\s+(meeting|decision)|fed meets?|next fed|cpi|consumer price index|jobs report|employment situation|nonfarm|payrolls|ppi|jolts|housing starts|new home sales|existing home sales|pending home sales|economic calendar|data releases?|release dates?)\b/i,
  },
  {
    intent: 'hmda',
    test: /\b(hmda|approval rates?|denial rates?|denied|approved|denials|approvals|originations?|applications|(?:top|biggest|largest)\s+(?:\w+\s+)?(?:lenders?|banks?)|lender rankings?|market share|fha share|share of (loans|mortgages|applications)|how many (mortgages|loans|applications))\b/i,
  },
  {
    intent: 'rates',
    test: /\b(rates?|apr)\b.*\b(today|current|now|this week|latest|mortgage|30|15|fixed|get|qualify)\b|\b(today'?s|current|latest)\b.*\brates?\b|\bmortgage rates?\b|\bwhat rate\b/i,
  },
  {
    intent: 'advice',
    test: /\bshould i\b|\bis it (a good|smart|wise) (time|idea)\b|\bwhich (loan|lender|mortgage) (is best|should)\b|\bcan i afford\b/i,
  },
  { intent: 'definition', test: /\b(what is|what's|what are|what does|define|definition of|meaning of|explain|how does|how do)\b/i },
];

export function classifyIntent(question: string): Intent {
  for (const rule of RULES) if (rule.test.test(question)) return rule.intent;
  return 'search';
}
