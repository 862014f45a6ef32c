// "What was the FY2021 very low-income (50%) limit for a family of four in Cook County?": HUD's
// Section 8 income limits and area median family income of a county, from the HUD files loaded
// (the hud_median_family_income dataset, FY2018–FY2022). The phrases that ask for them, name each
// level and write a household size are data (data/ask/reader-words.json). A fiscal year not loaded,
// or a place that is not a county, is said first; no other year or level is given in its place.
import { HttpError, toErrorResponse } from '../../platform/errors.ts';
import { placesIn, type CountyPlace } from '../../geo/gazetteer.ts';
import { INCOME_LEVELS, type IncomeArea, type IncomeLevel } from '../../statistics/income.ts';
import { HUD_INCOME_LIMITS_URL } from '../../hmda-aggregates/sources.ts';
import type { AnswerDraft, BuiltinDeps } from './draft.ts';
import { formatMoney } from './draft.ts';
import { lexicon } from './reader/lexicon.ts';
import { isYearText } from './reader/read-times.ts';
import { findPhrase, wordsOf, type Word } from './reader/words.ts';

type Level = IncomeLevel | 'median';
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };
const said = (words: readonly Word[], phrases: readonly string[]) => phrases.some((phrase) => findPhrase(words, phrase).length > 0);

/** The levels asked, most specific first ("very low-income" is not "low-income"). */
function levelsOf(words: readonly Word[]): Level[] {
  const { levels } = lexicon().income;
  for (const level of ['extremely_low', 'very_low', 'low'] as const) if (said(words, levels[level])) return [level];
  if (said(words, levels.median)) return ['median'];
  return ['extremely_low', 'very_low', 'low'];
}

/** "a family of four", "a three-person household", "2 people", "a single person". */
function householdOf(words: readonly Word[]): number | undefined {
  for (const [size, phrases] of Object.entries(lexicon().income.households)) if (said(words, phrases)) return Number(size);
  for (const word of words) {
    const size = NUMBER_WORDS[word.normal] ?? Number(word.normal);
    const before = words[word.index - 1]?.normal;
    const after = words[word.index + 1]?.root;
    const sized =
      ['person', 'people', 'member'].includes(after ?? '') ||
      (before === 'of' && ['family', 'household'].includes(words[word.index - 2]?.root ?? ''));
    if (sized && Number.isInteger(size) && size >= 1 && size <= 8) return size;
  }
  return undefined;
}

/** "FY2022", "FY 2022", "FY22", "fiscal year 2022", or years written alone: every one, in order ("2020 and 2022"). */
function fiscalYearsOf(words: readonly Word[]): number[] {
  const years: number[] = [];
  for (const word of words) {
    const text = word.normal;
    if (text.startsWith('fy') && /^\d{2}(\d{2})?$/.test(text.slice(2))) years.push(Number(text.slice(2).padStart(4, '20')));
    else if (text === 'fy' && isYearText(words[word.index + 1]?.normal ?? '')) years.push(Number(words[word.index + 1]?.normal));
    else if (isYearText(text) && words[word.index - 1]?.normal !== 'fy') years.push(Number(text));
  }
  return [...new Set(years)];
}

const levelTitle = (level: Level) =>
  level === 'median' ? 'area median family income' : (INCOME_LEVELS.find((entry) => entry.key === level)?.title ?? level);

function figuresOf(area: IncomeArea, levels: readonly Level[], household: number | undefined): string[] {
  return levels.map((level) => {
    if (level === 'median') return `median family income **${formatMoney(area.median)}**`;
    const values = area.limits[level] ?? [];
    if (household !== undefined) {
      const value = values[household - 1];
      return value
        ? `${levelTitle(level)} for a household of ${household}: **${formatMoney(value)}**`
        : `${levelTitle(level)}: not in the file`;
    }
    const sizes = values.map((value, index) => `${index + 1}: ${value ? formatMoney(value) : 'n/a'}`).join(', ');
    return `${levelTitle(level)} by household size (people: limit) — ${sizes}`;
  });
}

/** One county's figures for one fiscal year (the latest when none is written): its lines, or why there are none. */
async function countyYear(
  county: CountyPlace,
  fiscalYear: number | undefined,
  words: readonly Word[],
  deps: BuiltinDeps,
): Promise<{ lines: string[]; missing?: string; note: string; source: string; loaded: string }> {
  const found = await deps.services.hmdaAggregates.incomeLimits({ county: county.fips, ...(fiscalYear ? { fiscalYear } : {}) });
  const loaded = `FY${found.years[0]} to FY${found.years.at(-1)}`;
  if (found.areas.length === 0) {
    const why =
      fiscalYear && !found.years.includes(fiscalYear)
        ? `FY${fiscalYear} is not in the data held (${loaded})`
        : 'the county is not in the HUD files held';
    return {
      lines: [],
      missing: `HUD's FY${fiscalYear ?? ''} figures for ${county.name}: ${why}`,
      note: '',
      source: found.source_url,
      loaded,
    };
  }
  const levels = levelsOf(words);
  const household = householdOf(words);
  const whole = found.areas.filter((area) => area.areaFips.endsWith('99999'));
  const areas = (whole.length > 0 ? whole : found.areas).slice(0, 12);
  const year = areas[0]?.fiscalYear;
  const lines = areas.map(
    (area) => `HUD's FY${year} figures for ${area.name}, ${area.state}: ${figuresOf(area, levels, household).join('; ')}.`,
  );
  return { lines, note: `FY${year}`, source: found.source_url, loaded };
}

/** Every county and fiscal year asked ("Cook County for 2020 and 2022"): each answered, the ones not held said first. */
export async function answerIncome(question: string, deps: BuiltinDeps): Promise<AnswerDraft | undefined> {
  const words = wordsOf(question);
  if (!said(words, lexicon().income.asks)) return undefined;
  const counties = (await placesIn(question, { deps, populations: new Map() })).filter(
    (place): place is CountyPlace => place.kind === 'county',
  );
  const years = fiscalYearsOf(words);
  const source = HUD_INCOME_LIMITS_URL;
  if (counties.length === 0)
    return {
      text: "I can't give HUD's income figures without a county: HUD publishes its median family income and income limits by county (by town in New England), FY2018 to FY2022 here. Name a county and a fiscal year.",
      sources: [source],
    };
  try {
    const asked = counties.flatMap((county) => (years.length > 0 ? years : [undefined]).map((year) => ({ county, year })));
    const found = await Promise.all(asked.map(({ county, year }) => countyYear(county, year, words, deps)));
    const missing = found.flatMap((entry) => (entry.missing ? [entry.missing] : []));
    const first = missing.length > 0 ? [`I can't give ${missing.join('; ')}.`] : [];
    const held = found.filter((entry) => !entry.missing);
    if (held.length === 0) return { text: first.join(''), sources: [found[0]?.source ?? source] };
    const fiscal = [...new Set(held.map((entry) => entry.note))].join(', ');
    const note = `Source: HUD Section 8 income limits, ${fiscal} (${held[0]?.source}); the data held covers ${held[0]?.loaded}.`;
    return { text: [...first, ...held.flatMap((entry) => entry.lines), note].join('\n\n'), sources: [held[0]?.source ?? source] };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { text: `I can't give HUD's income figures: ${toErrorResponse(error).body.error}`, sources: [source] };
  }
}
