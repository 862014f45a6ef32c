// Reads the facts a mortgage question names: state, county, credit score, down payment, loan type,
// month, year, units. Pure text rules, no model: what it cannot find stays undefined, and the
// answer then says which default it used.
import { STATES, type StateInfo } from '../../geo/states.ts';
import { ficoTierOfScore } from '../../platform/contract/credit-tiers.ts';
import { MONTH_NAMES } from '../../platform/contract/months.ts';
import { WORD_CODES } from '../../geo/word-codes.ts';

export type LoanType = 'conventional' | 'fha' | 'va' | 'usda' | 'jumbo';

export interface Entities {
  state?: StateInfo;
  /** County name as written ("Los Angeles", "Cook"), without the word County. */
  county?: string;
  creditScore?: number;
  /** FICO tier 1..5 of the rates API, from the score. */
  ficoTier?: number;
  downPaymentPercent?: number;
  /** LTV tier 1 (75%: LTV ≤ 80) or 2 (95%: LTV above 80), from the down payment. */
  ltvTier?: number;
  loanType?: LoanType;
  loanTerm?: number;
  /** 1..12 */
  month?: number;
  year?: number;
  units?: number;
}

/** Month names, January first (the one list: platform/contract/months.ts). */
export const MONTHS: readonly string[] = MONTH_NAMES;

function findStateIn(text: string): StateInfo | undefined {
  const lower = text.toLowerCase();
  // Longest names first, so "West Virginia" wins over "Virginia".
  const byLength = [...STATES].sort((a, b) => b.name.length - a.name.length);
  for (const state of byLength) {
    if (new RegExp(`\\b${state.name.toLowerCase()}\\b`).test(lower)) return state;
  }
  const allCaps = text === text.toUpperCase();
  for (const match of text.matchAll(/\b([A-Za-z]{2})\b/g)) {
    const token = match[1] ?? '';
    const code = token.toUpperCase();
    const state = STATES.find((candidate) => candidate.code === code);
    if (!state) continue;
    if (token !== code) continue; // "in", "or", "me" are words, not states
    if (allCaps && WORD_CODES.has(code)) continue;
    // "VA loan" names the loan type, not Virginia.
    if (code === 'VA' && /\bVA\s+(loan|mortgage|limit|funding)/i.test(text)) continue;
    return state;
  }
  return undefined;
}

/** The FICO tier of the rates API that holds a score (the contract kit's tiers), or undefined below 680. */
export function ficoTierFor(score: number): number | undefined {
  return ficoTierOfScore(score);
}

function findCreditScore(text: string): number | undefined {
  const near = /(?:fico|credit(?:\s+score)?|score)\D{0,20}?(\d{3})\b|\b(\d{3})\s*(?:fico|credit(?:\s+score)?|score)/i.exec(text);
  const value = Number(near?.[1] ?? near?.[2]);
  if (Number.isInteger(value) && value >= 300 && value <= 850) return value;
  if (/\b(excellent|great)\s+credit\b/i.test(text)) return 780;
  if (/\bgood\s+credit\b/i.test(text)) return 720;
  return undefined;
}

function findDownPayment(text: string): number | undefined {
  const percent =
    /(\d{1,2}(?:\.\d+)?)\s*(?:%|percent)\s*(?:down|down payment|deposit)/i.exec(text) ??
    /down payment of\s*(\d{1,2}(?:\.\d+)?)\s*(?:%|percent)/i.exec(text);
  if (percent?.[1]) return Number(percent[1]);
  const ltv = /(\d{2,3})\s*%?\s*(?:ltv|loan[- ]to[- ]value)/i.exec(text) ?? /(?:ltv|loan[- ]to[- ]value)\D{0,10}(\d{2,3})/i.exec(text);
  if (ltv?.[1]) return 100 - Number(ltv[1]);
  return undefined;
}

function findLoanType(text: string): LoanType | undefined {
  if (/\bjumbo\b/i.test(text)) return 'jumbo';
  if (/\bFHA\b/i.test(text)) return 'fha';
  if (/\bVA\b(?!\s*(?:state|county))|\bveterans?\b/.test(text)) return 'va';
  if (/\bUSDA\b|\brural development\b/i.test(text)) return 'usda';
  if (/\bconventional\b|\bconforming\b/i.test(text)) return 'conventional';
  return undefined;
}

function findCounty(text: string): string | undefined {
  const match =
    /\b((?:[A-Z][a-zA-Z.'-]+\s){0,3}?[A-Z][a-zA-Z.'-]+)\s+(?:County|Parish|Borough)\b/.exec(text) ??
    /\b(?:county|parish) of\s+([A-Z][a-zA-Z.'-]+(?:\s[A-Z][a-zA-Z.'-]+){0,3})/i.exec(text);
  const name = match?.[1]?.replace(/^(?:In|For|Of|The|What|Whats|What's)\s+/, '').trim();
  return name && name.length > 1 ? name : undefined;
}

export function extractEntities(text: string): Entities {
  const entities: Entities = {};
  const state = findStateIn(text);
  if (state) entities.state = state;
  const county = findCounty(text);
  if (county) entities.county = county;
  const score = findCreditScore(text);
  if (score !== undefined) {
    entities.creditScore = score;
    const tier = ficoTierFor(score);
    if (tier !== undefined) entities.ficoTier = tier;
  }
  const down = findDownPayment(text);
  if (down !== undefined && down >= 0 && down < 100) {
    entities.downPaymentPercent = down;
    entities.ltvTier = 100 - down <= 80 ? 1 : 2;
  }
  const loanType = findLoanType(text);
  if (loanType) entities.loanType = loanType;
  const term = /\b(10|15|20|30)[- ]?(?:year|yr)\b/i.exec(text);
  if (term?.[1]) entities.loanTerm = Number(term[1]);
  const monthIndex = MONTHS.findIndex((month) =>
    new RegExp(`\\b${month}\\b|\\b${month.slice(0, 3)}\\b(?!\\w)`, 'i').test(text.replace(/\bmay\s+(?:i|we|be)\b/gi, '')),
  );
  if (monthIndex >= 0) entities.month = monthIndex + 1;
  const year = /\b(19[7-9]\d|20[0-4]\d)\b/.exec(text);
  if (year?.[1]) entities.year = Number(year[1]);
  const units = /\b([1-4]|one|two|three|four)[- ](?:unit|family)\b/i.exec(text);
  if (units?.[1]) entities.units = { one: 1, two: 2, three: 3, four: 4 }[units[1].toLowerCase()] ?? Number(units[1]);
  return entities;
}
