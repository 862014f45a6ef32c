// "How have rates moved since 2020?", "How much did the conforming limit change since 2018?",
// "What was the 30-year rate in March 2022?": the series service's observations of the series the
// question names, over the span it names, with the change, the range and the method of any average,
// citing the series' source and the series on this API. Every figure comes from the service.
import type { SeriesAnswer } from '../../series/contract.ts';
import { toErrorResponse } from '../../platform/errors.ts';
import type { AnswerDraft, Composer, BuiltinDeps } from './draft.ts';
import { NOT_ADVICE, formatDate, formatMoney } from './draft.ts';
import { MONTHS, type Entities } from './entities.ts';
import { isoDay } from '../../platform/dates.ts';

const MONTH_PATTERN = MONTHS.map((month) => `${month}|${month.slice(0, 3)}\\.?`).join('|');
const YEAR = '((?:19|20)\\d\\d)';
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twenty: 20,
};

const SINCE = new RegExp(
  `\\bsince\\s+(?:(?:the\\s+(?:start|beginning)\\s+of\\s+)?(?:(${MONTH_PATTERN})\\s+)?${YEAR}|last\\s+year)\\b`,
  'i',
);
const OVER_PAST =
  /\b(?:over|in|during)\s+the\s+(?:past|last)\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|twenty)?\s*(years?|months?|decades?)\b/i;
const BETWEEN = new RegExp(`\\b(?:between|from)\\s+${YEAR}\\s+(?:and|to|through|until)\\s+${YEAR}\\b`, 'i');
const IN_MONTH = new RegExp(`\\b(?:in|during|for|of)\\s+(${MONTH_PATTERN})\\s+(?:of\\s+)?${YEAR}\\b`, 'i');
const IN_YEAR = new RegExp(`\\b(?:in|during|for)\\s+${YEAR}\\b`, 'i');
const RATE_WORDS = /\b(mortgage\s+rates?|interest\s+rates?|rates?|apr|pmms|benchmark)\b/i;
const LIMIT_WORDS = /\b(?:loan\s+)?limits?\b/i;
const HMDA_WORDS = /\b(denial\s+rates?|approval\s+rates?|denials|originations?|originated|applications|hmda)\b/i;
const HISTORY_WORDS = /\b(histor(?:y|ical)|over\s+time|trend|moved|changed?|risen|rose|fallen|fell|gone\s+(?:up|down)|climbed|dropped)\b/i;
const PAST = /\b(was|were|did|had)\b/i;
const OUTSTANDING =
  /\b(outstanding|existing\s+(?:mortgages|loans|borrowers|homeowners)|paying\s+on|rates?\s+(?:borrowers|homeowners)\s+(?:are\s+)?pay|locked[- ]in)\b/i;

/**
 * Questions about a series over time: a span ("since 2020", "over the past five years", "between
 * 2019 and 2023") with a rate, limit or HMDA topic, or a past month or year asked of a rate.
 */
export function isSeriesQuestion(question: string): boolean {
  const topic = RATE_WORDS.test(question) || LIMIT_WORDS.test(question) || HMDA_WORDS.test(question);
  if (!topic) return false;
  if (SINCE.test(question) || OVER_PAST.test(question) || BETWEEN.test(question)) return true;
  if (HISTORY_WORDS.test(question) && /\b(history|historical|over time|trend)\b/i.test(question)) return true;
  // "What was the 30-year rate in March 2022?" (not HMDA's denial rate, not a loan limit's year)
  const rateOnly = RATE_WORDS.test(question) && !HMDA_WORDS.test(question) && !LIMIT_WORDS.test(question);
  return rateOnly && PAST.test(question) && (IN_MONTH.test(question) || IN_YEAR.test(question));
}

type Span =
  | { kind: 'since' | 'between' | 'all'; from?: string; to?: string; label: string }
  | { kind: 'month' | 'year'; from: string; to: string; label: string };

const monthIndex = (name: string) => MONTHS.findIndex((month) => month.slice(0, 3).toLowerCase() === name.slice(0, 3).toLowerCase()) + 1;
const pad = (value: number) => String(value).padStart(2, '0');

export function spanOf(question: string, entities: Entities, today: Date): Span {
  const since = SINCE.exec(question);
  if (since) {
    if (/last\s+year/i.test(since[0])) {
      const year = today.getUTCFullYear() - 1;
      return { kind: 'since', from: `${year}-01-01`, label: `since the start of ${year}` };
    }
    const year = Number(since[2]);
    if (since[1]) {
      const month = monthIndex(since[1]);
      return { kind: 'since', from: `${year}-${pad(month)}-01`, label: `since ${MONTHS[month - 1]} ${year}` };
    }
    return { kind: 'since', from: `${year}-01-01`, label: `since ${year}` };
  }
  const between = BETWEEN.exec(question);
  if (between)
    return { kind: 'between', from: `${between[1]}-01-01`, to: `${between[2]}-12-31`, label: `from ${between[1]} to ${between[2]}` };
  const past = OVER_PAST.exec(question);
  if (past) {
    const count = past[1] === undefined ? 1 : (NUMBER_WORDS[past[1].toLowerCase()] ?? Number(past[1]));
    const unit = (past[2] ?? 'year').toLowerCase();
    const months = unit.startsWith('month') ? count : unit.startsWith('decade') ? count * 120 : count * 12;
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - months, today.getUTCDate()));
    return {
      kind: 'since',
      from: isoDay(start),
      label: `over the past ${count === 1 ? '' : `${count} `}${unit.replace(/s$/, '')}${count === 1 ? '' : 's'}`,
    };
  }
  const month = IN_MONTH.exec(question);
  if (month) {
    const index = monthIndex(month[1] as string);
    const year = Number(month[2]);
    const last = new Date(Date.UTC(year, index, 0)).getUTCDate();
    return {
      kind: 'month',
      from: `${year}-${pad(index)}-01`,
      to: `${year}-${pad(index)}-${last}`,
      label: `in ${MONTHS[index - 1]} ${year}`,
    };
  }
  const year = IN_YEAR.exec(question);
  if (year && PAST.test(question)) return { kind: 'year', from: `${year[1]}-01-01`, to: `${year[1]}-12-31`, label: `in ${year[1]}` };
  // A follow-up ("and the 15-year?") keeps the year an earlier question named.
  if (entities.year !== undefined) return { kind: 'since', from: `${entities.year}-01-01`, label: `since ${entities.year}` };
  return { kind: 'all', label: 'over the whole series' };
}

interface Choice {
  id: string;
  /** How the answer names the series. */
  name: string;
  kind: 'rate' | 'money' | 'count' | 'percent';
}

async function countyFips(deps: BuiltinDeps, entities: Entities): Promise<{ fips: string; name: string } | undefined> {
  if (!entities.state || !entities.county) return undefined;
  try {
    const result = await deps.services.loanLimits.getLoanLimits({
      state: entities.state.code,
      county: entities.county,
      loan_type: 'conforming',
    });
    const county = result.counties[0];
    return county ? { fips: county.fips, name: `${county.county}, ${county.state}` } : undefined;
  } catch {
    return undefined;
  }
}

/** Which series the question asks about; a reason instead when it names something no series holds. */
export async function chooseSeries(question: string, entities: Entities, deps: BuiltinDeps): Promise<Choice | { reason: string }> {
  if (HMDA_WORDS.test(question)) {
    const geo = entities.state?.code ?? 'US';
    const where = entities.state ? ` in ${entities.state.name}` : ' nationally';
    if (/denial\s+rates?|denials?/i.test(question) && /rate/i.test(question))
      return { id: `hmda/${geo}/denial_rate`, name: `the mortgage denial rate${where}`, kind: 'percent' };
    if (/approval\s+rates?/i.test(question))
      return { id: `hmda/${geo}/approval_rate`, name: `the mortgage approval rate${where}`, kind: 'percent' };
    if (/denials|denied/i.test(question)) return { id: `hmda/${geo}/denials`, name: `applications denied${where}`, kind: 'count' };
    if (/originat/i.test(question)) return { id: `hmda/${geo}/originations`, name: `mortgages originated${where}`, kind: 'count' };
    // "HMDA records" are every record, purchased loans too: not the applications.
    if (/\brecords?\b/i.test(question) && !/applications/i.test(question))
      return { id: `hmda/${geo}/records`, name: `HMDA records${where}`, kind: 'count' };
    return { id: `hmda/${geo}/applications`, name: `mortgage applications${where}`, kind: 'count' };
  }
  if (LIMIT_WORDS.test(question)) {
    const program = entities.loanType === 'fha' ? 'fha' : 'conforming';
    const county = await countyFips(deps, entities);
    if (county)
      return {
        id: `loan-limits/${program}/${county.fips}`,
        name: `the one-unit ${program === 'fha' ? 'FHA' : 'conforming'} loan limit in ${county.name}`,
        kind: 'money',
      };
    const ceiling = /\b(ceiling|high[- ]cost|maximum)\b/i.test(question);
    if (program === 'fha')
      return ceiling
        ? { id: 'loan-limits/fha/ceiling', name: 'the FHA national ceiling (one unit)', kind: 'money' }
        : { id: 'loan-limits/fha/floor', name: 'the FHA national floor (one unit)', kind: 'money' };
    return ceiling
      ? { id: 'loan-limits/conforming/ceiling', name: 'the conforming limit ceiling in high-cost areas (one unit)', kind: 'money' }
      : { id: 'loan-limits/conforming/baseline', name: 'the baseline conforming loan limit (one unit)', kind: 'money' };
  }
  if (OUTSTANDING.test(question)) {
    if (!entities.state)
      return { reason: "FHFA's figures on the rates of outstanding mortgages are by state: name a state and I'll give its history." };
    return {
      id: `nmdb/${entities.state.code}/ave_intrate`,
      name: `the average rate on outstanding mortgages in ${entities.state.name} (FHFA National Mortgage Database)`,
      kind: 'rate',
    };
  }
  if (/\b(5\/1|arm|adjustable)\b/i.test(question)) return { id: 'pmms/5-1-arm', name: "Freddie Mac's 5/1 adjustable rate", kind: 'rate' };
  const product =
    entities.loanType === 'fha' || entities.loanType === 'va' || entities.loanType === 'jumbo' || entities.loanType === 'usda'
      ? entities.loanType
      : undefined;
  if (product)
    return {
      id: `optimal-blue/${product}-30-year`,
      name: `the Optimal Blue 30-year ${product === 'fha' || product === 'va' || product === 'usda' ? product.toUpperCase() : product} rate index`,
      kind: 'rate',
    };
  if (/\b(optimal blue|benchmark|daily)\b/i.test(question))
    return { id: 'optimal-blue/conforming-30-year', name: 'the Optimal Blue 30-year conforming benchmark', kind: 'rate' };
  if (entities.loanTerm === 15) return { id: 'pmms/15-year', name: "Freddie Mac's 15-year fixed rate", kind: 'rate' };
  return { id: 'pmms/30-year', name: "Freddie Mac's 30-year fixed rate", kind: 'rate' };
}

function formatValue(value: number, kind: Choice['kind']): string {
  if (kind === 'money') return formatMoney(value);
  if (kind === 'count') return Math.round(value).toLocaleString('en-US');
  return `${value.toFixed(Math.round(value * 100) === value * 100 ? 2 : 3)}%`;
}

function formatChange(first: number, last: number, kind: Choice['kind']): string {
  const change = last - first;
  const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'unchanged';
  if (change === 0) return 'unchanged';
  if (kind === 'rate' || kind === 'percent') return `${direction} **${Math.abs(change).toFixed(2)} percentage points**`;
  const percent = first === 0 ? '' : ` (${change > 0 ? '+' : '−'}${Math.abs((change / first) * 100).toFixed(1)}%)`;
  return `${direction} **${formatValue(Math.abs(change), kind)}**${percent}`;
}

/** "March 3, 2022", or the period ("2025Q3", "2026") where an observation covers one. */
const when = (observation: SeriesAnswer['observations'][number]) =>
  observation.period
    ? /^\d{4}Q\d$/.test(observation.period)
      ? `${observation.period.slice(4)} ${observation.period.slice(0, 4)}`
      : observation.period
    : formatDate(observation.date);

function describeSpan(answer: SeriesAnswer, choice: Choice, span: Span): string[] {
  const points = answer.observations.filter(
    (observation): observation is typeof observation & { value: number } => observation.value !== null,
  );
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return [`${answer.title} has no published figure ${span.label}.`];
  const lines = [
    `${capitalise(choice.name)} was **${formatValue(first.value, choice.kind)}** ${preposition(first)} ${when(first)} and **${formatValue(last.value, choice.kind)}** ${preposition(last)} ${when(last)}: ${formatChange(first.value, last.value, choice.kind)}.`,
  ];
  if (answer.frequency === 'annual' && points.length <= 15) {
    lines.push(
      `Year by year: ${points.map((point) => `${point.period ?? point.date.slice(0, 4)} ${formatValue(point.value, choice.kind)}`).join('; ')}.`,
    );
  } else if (points.length > 2) {
    const low = points.reduce((best, point) => (point.value < best.value ? point : best));
    const high = points.reduce((best, point) => (point.value > best.value ? point : best));
    lines.push(
      `Over that span it ranged from ${formatValue(low.value, choice.kind)} (${when(low)}) to ${formatValue(high.value, choice.kind)} (${when(high)}), across ${points.length} ${answer.frequency} observations.`,
    );
  }
  if (span.from !== undefined && answer.first_date !== null && span.from < answer.first_date)
    lines.push(`The series begins on ${formatDate(answer.first_date)}.`);
  return lines;
}

const preposition = (observation: { period?: string | undefined }) => (observation.period ? 'in' : 'on');
const capitalise = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

function describePoint(published: SeriesAnswer, averaged: SeriesAnswer | undefined, choice: Choice, span: Span): string[] {
  const points = published.observations.filter(
    (observation): observation is typeof observation & { value: number } => observation.value !== null,
  );
  const mean = averaged?.observations[0];
  if (points.length === 1 && (!mean || mean.count === 1)) {
    return [
      `${capitalise(choice.name)} was **${formatValue(points[0]!.value, choice.kind)}** ${preposition(points[0]!)} ${when(points[0]!)}.`,
    ];
  }
  const lines: string[] = [];
  if (mean && mean.value !== null) {
    const shown = choice.kind === 'rate' || choice.kind === 'percent' ? `${mean.value.toFixed(2)}%` : formatValue(mean.value, choice.kind);
    lines.push(
      `${capitalise(choice.name)} averaged **${shown}** ${span.label}: the mean of its ${mean.count} ${published.native_frequency} observations dated then.`,
    );
  }
  if (points.length > 0 && points.length <= 6) {
    lines.push(
      `The ${published.native_frequency} figures: ${points.map((point) => `${formatValue(point.value, choice.kind)} on ${formatDate(point.date)}`).join(', ')}.`,
    );
  } else if (points.length > 6) {
    const low = points.reduce((best, point) => (point.value < best.value ? point : best));
    const high = points.reduce((best, point) => (point.value > best.value ? point : best));
    lines.push(
      `It ranged from ${formatValue(low.value, choice.kind)} (${formatDate(low.date)}) to ${formatValue(high.value, choice.kind)} (${formatDate(high.date)}).`,
    );
  }
  return lines;
}

function seriesLink(deps: BuiltinDeps, answer: SeriesAnswer, span: Span, frequency?: string): string {
  const query = new URLSearchParams();
  if (span.from !== undefined) query.set('from', span.from);
  if (span.to !== undefined) query.set('to', span.to);
  if (frequency) query.set('frequency', frequency);
  const text = query.toString();
  return `${deps.config.baseUrl}/api/v1/series/${answer.id}${text ? `?${text}` : ''}`;
}

export const answerSeries: Composer = async ({ question, entities, deps }): Promise<AnswerDraft> => {
  const catalogue = `${deps.config.baseUrl}/api/v1/series`;
  const choice = await chooseSeries(question, entities, deps);
  if ('reason' in choice) return { text: choice.reason, sources: [catalogue] };
  const span = spanOf(question, entities, deps.clock());
  const range = { ...(span.from ? { from: span.from } : {}), ...(span.to ? { to: span.to } : {}) };
  try {
    const published = await deps.services.series.answer(choice.id, range);
    let text: string[];
    const links = [seriesLink(deps, published, span)];
    if (span.kind === 'month' || span.kind === 'year') {
      const frequency = span.kind === 'month' ? 'monthly' : 'annual';
      const canAverage =
        published.native_frequency === 'daily' ||
        published.native_frequency === 'weekly' ||
        (frequency === 'annual' && published.native_frequency === 'quarterly');
      const averaged = canAverage ? await deps.services.series.answer(choice.id, { ...range, frequency }) : undefined;
      text = describePoint(published, averaged, choice, span);
      if (averaged) links.push(seriesLink(deps, averaged, span, frequency));
    } else {
      text = describeSpan(published, choice, span);
    }
    text.push(
      `Source: ${published.source.name ?? published.publisher} (${published.source.url}), as of ${formatDate(published.as_of)}. The full series: ${links[0]}.`,
    );
    if (published.notes[0]) text.push(published.notes[0]);
    if (choice.kind === 'rate') text.push(NOT_ADVICE);
    return {
      text: text.join('\n\n'),
      sources: [published.source.url, ...links, ...published.sources.slice(1).map((source) => source.url)],
    };
  } catch (error) {
    const { body } = toErrorResponse(error);
    return { text: `I can't answer that from the series I hold: ${body.error}`, sources: [catalogue] };
  }
};
