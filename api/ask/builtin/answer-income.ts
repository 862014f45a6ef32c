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
import { readerContext } from './answer-reader.ts';
import { isYearText } from './reader/read-times.ts';
import { findPhrase, wordsOf, type Word } from './reader/words.ts';

type Level = IncomeLevel | 'median';
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };
const said = (words: readonly Word[], phrases: readonly string[]) => phrases.some((phrase) => findPhrase(words, phrase).length > 0);

/**
 * The levels asked, in the order written ("the 80% limit for a family of four, and the area median
 * family income": both); a level's words inside a more specific one's ("low-income" in "very
 * low-income") are that one's. None written: the three limits.
 */
/** The words a percent level measures against ("80% of area median income"): part of the level, no level of their own. */
const MEDIAN_WORDS = new Set(['the', 'area', 'median', 'family', 'income', 'ami', 'mfi', 'hamfi', "area's"]);
/** How many words "of … median" may run to ("of the area median family income"). */
const MEDIAN_REACH = 5;

function ofMedian(words: readonly Word[], end: number): number[] {
  if (words[end + 1]?.normal !== 'of') return [];
  const after = words.slice(end + 2, end + 2 + MEDIAN_REACH);
  const run = after.findIndex((word) => !MEDIAN_WORDS.has(word.normal));
  const taken = run < 0 ? after : after.slice(0, run);
  return taken.some((word) => word.normal === 'median' || word.normal === 'ami' || word.normal === 'mfi')
    ? [end + 1, ...taken.map((word) => word.index)]
    : [];
}

function levelsOf(words: readonly Word[]): Level[] {
  const { levels } = lexicon().income;
  const taken = new Set<number>();
  const found: { level: Level; at: number }[] = [];
  for (const level of ['extremely_low', 'very_low', 'low', 'median'] as const)
    for (const phrase of levels[level])
      for (const indexes of findPhrase(words, phrase)) {
        if (indexes.some((index) => taken.has(index))) continue;
        for (const index of indexes) taken.add(index);
        for (const index of ofMedian(words, indexes.at(-1) as number)) taken.add(index);
        found.push({ level, at: indexes[0] as number });
      }
  const ordered = [...new Set(found.sort((a, b) => a.at - b.at).map((entry) => entry.level))];
  return ordered.length > 0 ? ordered : ['extremely_low', 'very_low', 'low'];
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

/** "FY2022", "FY 2022", "FY22", "fiscal year 2022", or years written alone: each fiscal year asked, in order. */
function fiscalYearsOf(words: readonly Word[]): number[] {
  const fiscal: number[] = [];
  for (const word of words) {
    const text = word.normal;
    if (text.startsWith('fy') && /^\d{2}(\d{2})?$/.test(text.slice(2))) fiscal.push(Number(text.slice(2).padStart(4, '20')));
    if (text === 'fy' && isYearText(words[word.index + 1]?.normal ?? '')) fiscal.push(Number(words[word.index + 1]?.normal));
  }
  const years = fiscal.length > 0 ? fiscal : words.filter((word) => isYearText(word.normal)).map((word) => Number(word.normal));
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

/** One figure of an area that two years can be set against: the median, or a limit for one household size. */
function singleFigure(area: IncomeArea, level: Level, household: number | undefined): number | undefined {
  if (level === 'median') return area.median;
  return household === undefined ? undefined : (area.limits[level]?.[household - 1] ?? undefined);
}

/** "How much did it change from FY2018 to FY2022": each single figure of the first year against the last's. */
function changes(first: IncomeArea, last: IncomeArea, levels: readonly Level[], household: number | undefined): string[] {
  return levels.flatMap((level) => {
    const from = singleFigure(first, level, household);
    const to = singleFigure(last, level, household);
    if (from === undefined || to === undefined || from === 0) return [];
    const change = to - from;
    const what = level === 'median' ? 'median family income' : `${levelTitle(level)} for a household of ${household}`;
    const way = change > 0 ? 'rose' : change < 0 ? 'fell' : 'was unchanged';
    const by = change === 0 ? '' : ` by **${formatMoney(Math.abs(change))}** (${((change / from) * 100).toFixed(1)}%)`;
    return [
      `From FY${first.fiscalYear} to FY${last.fiscalYear} the ${what} of ${last.name}, ${last.state} ${way}${by}: ${formatMoney(from)} to ${formatMoney(to)}.`,
    ];
  });
}

const NO_COUNTY =
  "I can't give HUD's income figures without a county: HUD publishes its median family income and income limits by county (by town in New England), FY2018 to FY2022 here. Name a county and a fiscal year.";

/** The areas of one fiscal year (the county as a whole where HUD splits it), or why there are none. */
async function areasOf(county: CountyPlace, fiscalYear: number | undefined, deps: BuiltinDeps) {
  const found = await deps.services.hmdaAggregates.incomeLimits({ county: county.fips, ...(fiscalYear ? { fiscalYear } : {}) });
  const loaded = `FY${found.years[0]} to FY${found.years.at(-1)}`;
  const whole = found.areas.filter((area) => area.areaFips.endsWith('99999'));
  const areas = (whole.length > 0 ? whole : found.areas).slice(0, 12);
  const missing =
    areas.length === 0
      ? `I can't give HUD's FY${fiscalYear ?? ''} figures for ${county.name}: ${fiscalYear && !found.years.includes(fiscalYear) ? `FY${fiscalYear} is not in the data held (${loaded})` : 'the county is not in the HUD files held'}.`
      : undefined;
  return { areas, loaded, missing, source: found.source_url };
}

/** One county's answer: a line per fiscal year held, the change from the first to the last, and the years not held. */
async function countyAnswer(
  county: CountyPlace,
  asked: readonly number[],
  levels: readonly Level[],
  household: number | undefined,
  deps: BuiltinDeps,
) {
  const years = await Promise.all((asked.length > 0 ? asked : [undefined]).map((year) => areasOf(county, year, deps)));
  // A year not held is said first; the years held are still answered.
  const missing = years.flatMap((entry) => (entry.missing ? [entry.missing] : []));
  const held = years.filter((entry) => entry.areas.length > 0);
  const lines = held.flatMap((entry) =>
    entry.areas.map(
      (area) => `HUD's FY${area.fiscalYear} figures for ${area.name}, ${area.state}: ${figuresOf(area, levels, household).join('; ')}.`,
    ),
  );
  const [first, last] = [held[0]?.areas[0], held.at(-1)?.areas[0]];
  const change = held.length >= 2 && first && last ? changes(first, last, levels, household) : [];
  return { missing, held, lines: [...lines, ...change], source: years[0]?.source };
}

/** Every county and fiscal year asked ("Cook County for 2020 and 2022"): each answered, the ones not held said first. */
export async function answerIncome(question: string, deps: BuiltinDeps): Promise<AnswerDraft | undefined> {
  const words = wordsOf(question);
  if (!said(words, lexicon().income.asks)) return undefined;
  // Populations tell counties of one name apart ("Cook County" with no state is Cook County, IL).
  const counties = (await placesIn(question, await readerContext(deps))).filter((place): place is CountyPlace => place.kind === 'county');
  if (counties.length === 0) return { text: NO_COUNTY, sources: [HUD_INCOME_LIMITS_URL] };
  const levels = levelsOf(words);
  const household = householdOf(words);
  const asked = fiscalYearsOf(words);
  try {
    const answers = await Promise.all(counties.map((county) => countyAnswer(county, asked, levels, household, deps)));
    const held = answers.flatMap((answer) => answer.held);
    const fiscal = [...new Set(held.map((entry) => `FY${entry.areas[0]?.fiscalYear}`))].join(' and ');
    const note = held[0]
      ? [`Source: HUD Section 8 income limits, ${fiscal} (${held[0].source}); the data held covers ${held[0].loaded}.`]
      : [];
    const text = [...answers.flatMap((answer) => answer.missing), ...answers.flatMap((answer) => answer.lines), ...note];
    return { text: text.join('\n\n'), sources: [answers[0]?.source ?? HUD_INCOME_LIMITS_URL] };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { text: `I can't give HUD's income figures: ${toErrorResponse(error).body.error}`, sources: [HUD_INCOME_LIMITS_URL] };
  }
}
