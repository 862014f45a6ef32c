// Credit and loan-to-value tiers as a borrower states them: a FICO score (760) or the tier that
// holds it (2); a down payment (20%) or an LTV (80%) or the LTV tier (1). The result carries how the
// value was read, so an answer can say "a score of 760 is in tier 2 (740-779)".
import { z } from 'zod';
import { invalidValue, valueMessage } from './messages.ts';
import { lenient, textForms, type JsonSchema } from './lenient.ts';
import { numberTextPattern } from './patterns.ts';

type Issue = { path?: PropertyKey[] | undefined; input?: unknown };

/** The published FICO tiers and the scores each covers (inclusive). */
export const FICO_TIERS = { 1: '780+', 2: '740-779', 3: '720-739', 4: '700-719', 5: '680-699' } as const;
export type FicoTier = keyof typeof FICO_TIERS;
export const FICO_RANGES: Readonly<Record<FicoTier, readonly [number, number]>> = {
  1: [780, 850],
  2: [740, 779],
  3: [720, 739],
  4: [700, 719],
  5: [680, 699],
};
export const FICO_SCORE_MIN = 300;
export const FICO_SCORE_MAX = 850;
/** The lowest score any tier covers; below it no published rate applies. */
export const LOWEST_TIERED_SCORE = FICO_RANGES[5][0];

/** The published LTV tiers: 1 ("75%") covers LTV up to 80% (20%+ down), 2 ("95%") above 80%. */
export const LTV_TIERS = { 1: '75%', 2: '95%' } as const;
export type LtvTier = keyof typeof LTV_TIERS;
export const LTV_TIER_1_MAX_PERCENT = 80;

/** How a tier parameter was given, and a sentence saying so when it was not the tier itself. */
export interface TierReading<Tier extends number | null> {
  tier: Tier;
  given: number;
  as: 'tier' | 'score' | 'ltv_percent' | 'down_payment_percent';
  /** e.g. "A FICO score of 760 is in tier 2 (740-779)."; null when the tier was given. */
  note: string | null;
}

/** Text `percentOrNumber` reads as a number that `body` (a number pattern) matches: "80", " 80 % ". */
const percentText = (...bodies: string[]): JsonSchema => textForms(`(?:${bodies.join('|')})(?:\\s*%)?`);

/** "80%", " 80 ", 80 → 80; anything else is left to fail. */
function percentOrNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim().replace(/\s*%$/, '');
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : value;
}

const FICO_HINT =
  `Give a FICO tier 1-5 (1 = 780+, 2 = 740-779, 3 = 720-739, 4 = 700-719, 5 = 680-699) or a score ` +
  `${FICO_SCORE_MIN}-${FICO_SCORE_MAX}; rates are published for scores of ${LOWEST_TIERED_SCORE} and above.`;

export function ficoTierOfScore(score: number): FicoTier | undefined {
  for (const tier of [1, 2, 3, 4, 5] as const) {
    const [low, high] = FICO_RANGES[tier];
    if (score >= low && score <= high) return tier;
  }
  return undefined;
}

/**
 * A FICO tier (1-5) or a score (300-850) read as the tier that contains it. A score below the
 * lowest tier is refused with a message saying no published rate covers it (ficoTier), or read as
 * "below 680", tier null, for answers whose sources cover every score (ficoTierOrBelow).
 */
function ficoReading(belowTiers: boolean) {
  const lowest = belowTiers ? FICO_SCORE_MIN : LOWEST_TIERED_SCORE;
  const error = (issue: Issue) => {
    const value = issue.input;
    if (typeof value === 'number' && Number.isInteger(value) && value >= FICO_SCORE_MIN && value < lowest) {
      const why = `A FICO score of ${value} is below ${LOWEST_TIERED_SCORE}, the lowest score a published rate tier covers (tier 5 is 680-699), so no published rate applies to it.`;
      return invalidValue(issue.path, value, why);
    }
    return valueMessage(issue, FICO_HINT);
  };
  const tierOrScore = z.union([z.int().min(1).max(5), z.int().min(lowest).max(FICO_SCORE_MAX)], { error });
  const json = {
    anyOf: [
      { type: 'integer', minimum: 1, maximum: 5 },
      { type: 'integer', minimum: lowest, maximum: FICO_SCORE_MAX },
      percentText(numberTextPattern(1, 5, { whole: true }), numberTextPattern(lowest, FICO_SCORE_MAX, { whole: true })),
    ],
  };
  return lenient(percentOrNumber, tierOrScore, { json }).transform((given): TierReading<FicoTier | null> => {
    if (given <= 5) return { tier: given as FicoTier, given, as: 'tier', note: null };
    const tier = ficoTierOfScore(given);
    if (tier === undefined) {
      return {
        tier: null,
        given,
        as: 'score',
        note: `A FICO score of ${given} is below ${LOWEST_TIERED_SCORE}, the lowest published tier.`,
      };
    }
    return { tier, given, as: 'score', note: `A FICO score of ${given} is in tier ${tier} (${FICO_TIERS[tier]}).` };
  });
}

export const ficoTier = () => ficoReading(false) as z.ZodType<TierReading<FicoTier>, unknown>;
export const ficoTierOrBelow = () => ficoReading(true);

const LTV_HINT =
  'Give an LTV tier (1 = 75%, covering LTV up to 80%, i.e. 20% or more down; 2 = 95%, LTV above 80%) or an LTV percent from 50 to 100, e.g. 80 or "80%".';
/** LTV percents below this read like a down payment (ltv=20 for "20% down"): refused as ambiguous. */
export const LOWEST_LTV_PERCENT = 50;

function ltvTierOfPercent(ltvPercent: number): LtvTier {
  return ltvPercent <= LTV_TIER_1_MAX_PERCENT ? 1 : 2;
}

/**
 * An LTV tier (1 or 2) or an LTV percent (50-100, e.g. 80 or "80%") read as the tier that covers it. A
 * number from 3 to 49 is refused as ambiguous: "ltv=20" is far more often 20% down than an LTV of 20%.
 */
export function ltvTier() {
  const error = (issue: Issue) => {
    const value = issue.input;
    if (typeof value === 'number' && value >= 3 && value < LOWEST_LTV_PERCENT) {
      const why =
        `An LTV of ${value}% is ambiguous: it reads like a down payment. For ${value}% down give down_payment=${value}; ` +
        `an LTV percent must be ${LOWEST_LTV_PERCENT}-100 (or a tier, 1 or 2).`;
      return invalidValue(issue.path, value, why);
    }
    return valueMessage(issue, LTV_HINT);
  };
  const tierOrPercent = z.union([z.int().min(1).max(2), z.number({ error }).min(LOWEST_LTV_PERCENT, { error }).max(100, { error })], {
    error,
  });
  const json = {
    anyOf: [
      { type: 'integer', minimum: 1, maximum: 2 },
      { type: 'number', minimum: LOWEST_LTV_PERCENT, maximum: 100 },
      percentText(numberTextPattern(1, 2, { whole: true }), numberTextPattern(LOWEST_LTV_PERCENT, 100)),
    ],
  };
  return lenient(percentOrNumber, tierOrPercent, { json }).transform((given): TierReading<LtvTier> => {
    if (given === 1 || given === 2) return { tier: given, given, as: 'tier', note: null };
    const tier = ltvTierOfPercent(given);
    return { tier, given, as: 'ltv_percent', note: `An LTV of ${given}% is in LTV tier ${tier} (${LTV_TIERS[tier]}).` };
  });
}

const DOWN_PAYMENT_HINT = 'Give the down payment as a percent of the price from 0 to 97, e.g. 20 or "3.5%".';

/** A down payment percent (0-97) read as the LTV tier it leads to: 20% or more down is tier 1. */
export function downPaymentLtvTier() {
  const error = (issue: Issue) => valueMessage(issue, DOWN_PAYMENT_HINT);
  const json = { anyOf: [{ type: 'number', minimum: 0, maximum: 97 }, percentText(numberTextPattern(0, 97))] };
  return lenient(percentOrNumber, z.number({ error }).min(0, { error }).max(97, { error }), { json }).transform(
    (given): TierReading<LtvTier> => {
      const tier = ltvTierOfPercent(100 - given);
      return {
        tier,
        given,
        as: 'down_payment_percent',
        note: `A ${given}% down payment is an LTV of ${100 - given}%, in LTV tier ${tier} (${LTV_TIERS[tier]}).`,
      };
    },
  );
}
