// Turns a question into a plan of analysis operations (api/analysis): which series, places and
// moments, and which operation (payment, count, crossing, rank, extremes, share, per-resident,
// compare, change, value), plus what cannot be answered and why, said first. No figure is made
// here: the plan only names what the analysis layer computes.
import type { CoreDeps } from '../../../platform/core-deps.ts';
import type { UsesServices } from '../../../domain-services.ts';
import type { Operation } from '../../../analysis/contract.ts';
import { momentsIn, spanIn, type Moment } from './moments.ts';
import { MONTHS as MONTH_NAMES } from '../entities.ts';
import { placesIn, type CountyPlace, type Place, type StatePlace } from '../../../geo/gazetteer.ts';
import { hmdaMeasureOf, limitProgramOf, loanTypeRecords, rateMentions, topicOf } from './measures.ts';
import { FREQUENCY, atOf, lastDay, moneyOf, pad, placeSeries, rangeOf, thresholdIn, topN } from './plan-parts.ts';

/** What planning reads: today (relative dates), the Fed calendar, and what places need. */
type PlanDeps = Pick<CoreDeps, 'clock'> & UsesServices<'calendar' | 'loanLimits'>;

export interface Step {
  operation: Operation;
  query: Record<string, unknown>;
  /** What the step answers, in the question's words ("in Harris County, TX", "2021 to 2022"). */
  label?: string;
}

export interface CalendarAsk {
  from: string;
  to: string;
  category?: 'fed';
  label: string;
  count: boolean;
}

export interface Plan {
  steps: Step[];
  /** Said first: what cannot be answered and why. */
  cannot: string[];
  /** How the question's words were read (a city as its county, a misspelling). */
  readings: string[];
  calendar?: CalendarAsk;
  /** Two unit counts of one county's limit to compare ("a 4-unit home … a one-unit home"). */
  units?: [number, number];
  /** Combine the steps: the largest of their changes ("which year had the biggest jump"), or the change from the first value to the second. */
  select?: 'largest-change' | 'change-between';
}

export interface PlanContext {
  deps: PlanDeps;
  /** Years the HMDA aggregates cover, to say so when a question asks for another. */
  hmdaYears: readonly number[];
  populations: ReadonlyMap<string, number>;
}

export async function planFor(question: string, context: PlanContext): Promise<Plan | undefined> {
  const { deps } = context;
  const plan: Plan = { steps: [], cannot: [], readings: [] };
  const places = await placesIn(question, { deps, populations: context.populations });
  for (const place of places) if (place.kind === 'county' && place.readAs) plan.readings.push(place.readAs);
  const counties = places.filter((place): place is CountyPlace => place.kind === 'county');
  const states = places.filter((place): place is StatePlace => place.kind === 'state');
  let moments = momentsIn(question, deps.clock());
  const topic = topicOf(question);
  const lower = question.toLowerCase();

  // Calendar questions for a period: releases in a month, Fed decisions in a year.
  if (/\b(releases?|events?|scheduled|calendar|announcements?)\b/i.test(question) && !/\brates?\b.*\bweek of\b/i.test(question)) {
    const month = moments.find((moment) => moment.kind === 'month');
    const year = moments.find((moment) => moment.kind === 'year');
    if (month) {
      const [y, m] = month.value.split('-').map(Number) as [number, number];
      plan.calendar = {
        from: `${month.value}-01`,
        to: `${month.value}-${pad(lastDay(y, m))}`,
        label: `${month.value}`,
        count: false,
        ...(/\b(fed|fomc)\b/i.test(question) ? { category: 'fed' as const } : {}),
      };
      return plan;
    }
    if (year && /\b(fed|fomc)\b/i.test(question)) {
      plan.calendar = { from: `${year.value}-01-01`, to: `${year.value}-12-31`, label: year.value, count: true, category: 'fed' };
      return plan;
    }
  }
  if (/\bhow many\b.*\b(fomc|fed)\b.*\b(meetings?|decisions?)\b/i.test(question)) {
    const year = moments.find((moment) => moment.kind === 'year');
    if (year) {
      plan.calendar = { from: `${year.value}-01-01`, to: `${year.value}-12-31`, label: year.value, count: true, category: 'fed' };
      return plan;
    }
  }

  // A Fed meeting named by month: its decision day from the calendar, or a plain "none on the calendar".
  const resolved: Moment[] = [];
  for (const moment of moments) {
    if (moment.kind !== 'fomc') {
      resolved.push(moment);
      continue;
    }
    const from = `${moment.year}-${pad(moment.month)}-01`;
    const to = `${moment.year}-${pad(moment.month)}-${pad(lastDay(moment.year, moment.month))}`;
    const events = await deps.services.calendar.answer({ from, to, category: ['fed'], limit: 5 }).catch(() => undefined);
    const decision = events?.events.find((event) => /FOMC|Federal Open Market|rate decision/i.test(event.name));
    if (!decision) {
      plan.cannot.push(
        `The calendar holds no Federal Reserve (FOMC) decision in ${moment.value}, so there is no Fed meeting week to look up for it.`,
      );
      continue;
    }
    plan.readings.push(`the ${MONTH_NAMES[moment.month - 1]} ${moment.year} Fed meeting as the FOMC decision of ${decision.date}`);
    resolved.push({ kind: 'day', value: decision.date, at: moment.at, end: moment.end, ...(moment.week ? { week: true } : {}) } as Moment);
  }
  moments = resolved;
  const span = spanIn(question, moments);
  const weekOf = (moment: Moment | undefined) => {
    if (!moment || !('week' in moment)) return undefined;
    const day = new Date(`${moment.value}T00:00:00Z`);
    const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
    return { from: monday.toISOString().slice(0, 10), to: new Date(monday.getTime() + 6 * 86_400_000).toISOString().slice(0, 10) };
  };

  // Monthly payment: an amount, and a rate given or taken from a series.
  if (
    /\b(monthly payment|mortgage payment|principal and interest|p&i|payment be|payment on|payments?)\b/i.test(question) &&
    /\$\s?\d/.test(question)
  ) {
    const amount = moneyOf(question.slice(question.indexOf('$')));
    const term = /\b(10|15|20|30)[- ]?(?:year|yr)\b/i.exec(question)?.[1];
    const rate = /\bat\s+(\d{1,2}(?:\.\d+)?)\s*(?:%|percent)/i.exec(question)?.[1];
    const query: Record<string, unknown> = { amount, term_years: Number(term ?? 30) };
    if (rate) query.rate = Number(rate);
    else {
      query.series = rateMentions(question).at(-1)?.id ?? 'pmms/30-year';
      const moment = span.to ?? span.from;
      if (moment) query.at = atOf(moment, 'weekly');
    }
    plan.steps.push({ operation: 'payment', query });
    return plan;
  }

  if (!topic) return undefined;

  // A county rate: no publisher gives one.
  if ((topic === 'rate' || topic === 'outstanding') && counties.length > 0) {
    const county = counties[0] as CountyPlace;
    plan.cannot.push(
      `I can't give a mortgage rate for ${county.name}: no source this service uses publishes rates by county (Freddie Mac's survey and the Optimal Blue indices are national, and FHFA's rates on outstanding mortgages are by state).`,
    );
    plan.steps.push({ operation: 'value', query: { series: 'pmms/30-year', at: 'latest' }, label: 'the national figure' });
    plan.steps.push({
      operation: 'value',
      query: { series: `nmdb/${county.state}/ave_intrate`, at: 'latest' },
      label: `${county.state}, rates on outstanding (existing) mortgages`,
    });
    return plan;
  }
  // HMDA years the aggregates do not cover.
  if (topic === 'hmda') {
    const first = context.hmdaYears[0];
    const last = context.hmdaYears.at(-1);
    for (const moment of moments) {
      const year = Number(moment.value.slice(0, 4));
      if (moment.kind !== 'latest' && first !== undefined && last !== undefined && (year < first || year > last)) {
        plan.cannot.push(`I can't give HMDA figures for ${year}: the HMDA aggregates this service holds cover ${first} to ${last}.`);
        moments = moments.map((candidate) =>
          candidate === moment ? { ...moment, kind: 'year', value: String(year < first ? first : last) } : candidate,
        );
      }
    }
  }
  const span2 = spanIn(question, moments);
  const frequency = FREQUENCY[topic];
  const threshold = thresholdIn(question);
  const ratesOf = () => rateMentions(question);
  const seriesFor = (place: Place | undefined): string | undefined => {
    if (topic === 'rate') return ratesOf()[0]?.id;
    if (topic === 'outstanding') return place && place.kind === 'state' ? `nmdb/${place.code}/ave_intrate` : undefined;
    if (topic === 'limit' && (!place || place.kind !== 'county')) {
      const program = limitProgramOf(question);
      if (/\bceiling\b/i.test(question)) return `loan-limits/${program}/ceiling`;
      return program === 'fha' ? 'loan-limits/fha/floor' : 'loan-limits/conforming/baseline';
    }
    return placeSeries(topic, question, place ?? { kind: 'nation', at: 0 });
  };
  const mainPlace: Place | undefined = counties[0] ?? states[0] ?? places[0];

  // Per resident, for one place or ranked across states.
  if (/\bper\s+(1,?000|thousand|100,?000|resident|capita|person|head)\b/i.test(question)) {
    const per = /100,?000/.test(question)
      ? 100_000
      : /\b(resident|capita|person|head)\b/i.test(question) && !/1,?000|thousand/.test(question)
        ? 1000
        : 1000;
    const measure = hmdaMeasureOf(question).measure;
    const at = atOf(span2.to ?? span2.from, 'annual');
    if (/\b(which|what) states?\b|\bmost\b|\bhighest\b|\brank\b|\btop\b/i.test(question) && !mainPlace) {
      plan.steps.push({
        operation: 'rank',
        query: {
          series: `hmda/*/${measure}`,
          among: 'states',
          ...(at ? { at } : {}),
          per,
          order: /\b(least|lowest|fewest)\b/i.test(question) ? 'lowest' : 'highest',
          limit: topN(question) ?? 5,
        },
      });
      return plan;
    }
    const series = mainPlace ? placeSeries('hmda', question, mainPlace) : undefined;
    if (series) {
      plan.steps.push({ operation: 'per-resident', query: { series, ...(at ? { at } : {}), per } });
      return plan;
    }
  }

  // How many weeks / counties meet a condition.
  if (/\bhow many\b/i.test(lower) && threshold) {
    if (/\bcount(y|ies)\b/i.test(question)) {
      const program = limitProgramOf(question);
      const state = states[0];
      const at = atOf(span2.from, 'annual');
      const template = topic === 'hmda' ? `hmda/*/${hmdaMeasureOf(question).measure}` : `loan-limits/${program}/*`;
      plan.steps.push({
        operation: 'count',
        query: {
          series: template,
          among: 'counties',
          ...(state ? { state: state.code } : {}),
          ...(at ? { at } : {}),
          [threshold.op]: threshold.value,
        },
      });
      return plan;
    }
    const series = seriesFor(mainPlace);
    if (series) {
      const range = span2.since
        ? { from: atOf(span2.from, frequency) }
        : span2.from && span2.to && span2.from !== span2.to
          ? { from: span2.from.value, to: span2.to.value }
          : rangeOf(span2.from);
      plan.steps.push({ operation: 'count', query: { series, ...range, [threshold.op]: threshold.value } });
      return plan;
    }
  }

  // When was it last (or first) above or below a level.
  if (/\bwhen\b|\blast time\b|\bfirst time\b/i.test(question) && threshold && !Number.isNaN(Number(threshold.value))) {
    const series = seriesFor(mainPlace);
    if (series) {
      plan.steps.push({
        operation: 'crossing',
        query: { series, [threshold.op]: threshold.value, which: /\bfirst\b/i.test(question) ? 'first' : 'last' },
      });
      return plan;
    }
  }

  // Ranks across states or counties.
  const acrossPlaces = /\b(which|what|rank|top|list)\b[^?]*\b(states?|count(?:y|ies))\b|\btop\s+\d|\btop (three|five|ten)\b/i.test(
    question,
  );
  if (
    acrossPlaces &&
    /\b(top|highest|lowest|most|least|largest|biggest|smallest|fewest|rank|best|worst)\b/i.test(question) &&
    !(topic === 'rate')
  ) {
    const order = /\b(lowest|least|smallest|fewest|bottom|worst)\b/i.test(question) ? 'lowest' : 'highest';
    const byCounty = /\bcount(y|ies)\b/i.test(question);
    const at = atOf(span2.to ?? span2.from, frequency);
    const template =
      topic === 'hmda'
        ? `hmda/*/${hmdaMeasureOf(question).measure}`
        : topic === 'limit'
          ? `loan-limits/${limitProgramOf(question)}/*`
          : topic === 'outstanding'
            ? 'nmdb/*/ave_intrate'
            : undefined;
    if (template) {
      const state = states[0];
      plan.steps.push({
        operation: 'rank',
        query: {
          series: template,
          among: byCounty || topic === 'limit' ? 'counties' : 'states',
          ...(byCounty && state ? { state: state.code } : {}),
          ...(at ? { at } : {}),
          order,
          limit: topN(question) ?? 1,
        },
      });
      return plan;
    }
  }

  // "Which year had the biggest jump": each year's change, the largest picked.
  if (/\b(biggest|largest|greatest)\s+(jump|increase|rise)\b/i.test(question) && topic === 'limit') {
    const from = Number(span2.from?.value.slice(0, 4) ?? 2018);
    const last = deps.clock().getUTCFullYear();
    const series = seriesFor(mainPlace) ?? 'loan-limits/conforming/baseline';
    for (let year = from + 1; year <= last; year += 1)
      plan.steps.push({
        operation: 'change',
        query: { series, from: String(year - 1), to: String(year) },
        label: `${year - 1} to ${year}`,
      });
    plan.select = 'largest-change';
    return plan;
  }

  // Highest and lowest over time.
  if (
    /\b(highest|lowest|peak|record|max(?:imum)?|min(?:imum)?|most|fewest|least)\b|\blow\b[^?]*\bhigh\b|\bhigh\b[^?]*\blow\b/i.test(
      question,
    ) &&
    !acrossPlaces
  ) {
    const series = seriesFor(mainPlace);
    if (series) {
      const range = span2.since
        ? { from: atOf(span2.from, frequency) }
        : span2.from && span2.to && span2.from !== span2.to
          ? { from: span2.from.value, to: span2.to.value }
          : rangeOf(span2.from);
      plan.steps.push({ operation: 'extremes', query: { series, ...range } });
      // "from its 2021 low to its 2023 high": both extremes, then the change between them.
      if (span2.from && span2.to && span2.from !== span2.to && /\blow\b.*\bhigh\b|\bhigh\b.*\blow\b/i.test(question)) {
        plan.steps.length = 0;
        plan.steps.push({ operation: 'extremes', query: { series, ...rangeOf(span2.from) }, label: span2.from.value });
        plan.steps.push({ operation: 'extremes', query: { series, ...rangeOf(span2.to) }, label: span2.to.value });
      }
      return plan;
    }
  }

  // Shares of a whole.
  if (/\b(share|percent(?:age)? of|proportion|portion|as a share|fraction)\b/i.test(question)) {
    const at = atOf(span2.from, 'annual');
    if (topic === 'limit' && counties[0]) {
      plan.steps.push({
        operation: 'share',
        query: { part: `loan-limits/fha/${counties[0].fips}`, whole: `loan-limits/conforming/${counties[0].fips}`, ...(at ? { at } : {}) },
      });
      return plan;
    }
    const type = loanTypeRecords(question);
    const place = counties[0] ?? states[0];
    if (type && place) {
      const code = place.kind === 'county' ? place.fips : place.code;
      plan.steps.push({
        operation: 'share',
        query: { part: `hmda/${code}/${type.measure}`, whole: `hmda/${code}/records`, ...(at ? { at } : {}) },
      });
      return plan;
    }
    if (place && /\b(all|the nation|nationwide|national|us|u\.s\.)\b/i.test(question)) {
      const measure = hmdaMeasureOf(question).measure;
      const code = place.kind === 'county' ? place.fips : place.code;
      plan.steps.push({
        operation: 'share',
        query: { part: `hmda/${code}/${measure}`, whole: `hmda/US/${measure}`, ...(at ? { at } : {}) },
      });
      return plan;
    }
  }

  // Comparisons: two rate series, two places, a place and its state, units, or a limit and the baseline.
  const comparing =
    /\b(spread|gap|difference|differ|compare[ds]?|comparison|versus|vs\.?|than|how far above|how far below|above the baseline)\b/i.test(
      question,
    );
  if (comparing) {
    const at = (frequencyOf: 'weekly' | 'quarterly' | 'annual') => atOf(span2.to ?? span2.from, frequencyOf);
    const mentions = ratesOf();
    const window = weekOf(span2.from);
    const rangeQuery = (moment: Moment | undefined) =>
      moment && moment.kind === 'year' && topic === 'rate' ? { at: moment.value } : moment ? { at: atOf(moment, frequency) } : {};
    if (topic === 'outstanding' && states.length >= 1) {
      const first = `nmdb/${(states[0] as StatePlace).code}/ave_intrate`;
      const other = states[1]
        ? `nmdb/${states[1].code}/ave_intrate`
        : (rateMentions(question.replace(/existing|outstanding/gi, ''))[0]?.id ?? 'pmms/30-year');
      plan.steps.push({ operation: 'compare', query: { series: first, other, at: 'latest' } });
      return plan;
    }
    if (topic === 'rate' && mentions.length >= 2) {
      const query = window ? { from: window.from, to: window.to } : rangeQuery(span2.to ?? span2.from);
      plan.steps.push({
        operation: 'compare',
        query: { series: (mentions[0] as { id: string }).id, other: (mentions[1] as { id: string }).id, ...('from' in query ? {} : query) },
      });
      return plan;
    }
    if (topic === 'limit' && counties.length >= 2) {
      const year = at('annual');
      plan.steps.push({
        operation: 'compare',
        query: {
          series: `loan-limits/${limitProgramOf(question)}/${(counties[0] as CountyPlace).fips}`,
          other: `loan-limits/${limitProgramOf(question)}/${(counties[1] as CountyPlace).fips}`,
          ...(year ? { at: year } : {}),
        },
      });
      return plan;
    }
    if (topic === 'limit' && counties[0] && /\bbaseline\b/i.test(question)) {
      const year = at('annual');
      plan.steps.push({
        operation: 'compare',
        query: {
          series: `loan-limits/conforming/${counties[0].fips}`,
          other: 'loan-limits/conforming/baseline',
          ...(year ? { at: year } : {}),
        },
      });
      return plan;
    }
    if (topic === 'hmda' && counties[0] && (states.length > 0 || /\bstate\b/i.test(question))) {
      const measure = hmdaMeasureOf(question).measure;
      const year = at('annual');
      plan.steps.push({
        operation: 'compare',
        query: {
          series: `hmda/${counties[0].fips}/${measure}`,
          other: `hmda/${counties[0].state}/${measure}`,
          ...(year ? { at: year } : {}),
        },
      });
      return plan;
    }
  }
  // Units of one county: "a 4-unit home ... than a one-unit home".
  const units = [...question.matchAll(/\b([1-4]|one|two|three|four)[- ]unit\b/gi)].map(
    (match) => ({ one: 1, two: 2, three: 3, four: 4 })[(match[1] as string).toLowerCase() as 'one'] ?? Number(match[1]),
  );
  if (topic === 'limit' && counties[0] && units.length >= 2) {
    const year = atOf(span2.from, 'annual') ?? String(deps.clock().getUTCFullYear());
    plan.steps.push({ operation: 'value', query: { series: `loan-limits/conforming/${counties[0].fips}`, at: year }, label: 'units' });
    plan.units = [units[0] as number, units[1] as number];
    return plan;
  }

  // Change between two moments, or since one.
  if (
    /\b(change[ds]?|rise|rose|risen|fall|fell|fallen|drop(?:ped)?|move[ds]?|increase[ds]?|decrease[ds]?|grow|grew|grown|jump(?:ed)?|climb(?:ed)?|up|down)\b/i.test(
      question,
    ) &&
    span2.from &&
    (span2.to || span2.since)
  ) {
    const series = seriesFor(mainPlace);
    if (series) {
      const fromWindow = weekOf(span2.from);
      const toWindow = weekOf(span2.to);
      if (fromWindow && toWindow) {
        plan.steps.push({ operation: 'value', query: { series, ...fromWindow }, label: `the week of ${span2.from.value}` });
        plan.steps.push({ operation: 'value', query: { series, ...toWindow }, label: `the week of ${span2.to?.value}` });
        plan.select = 'change-between';
        return plan;
      }
      plan.steps.push({
        operation: 'change',
        query: { series, from: atOf(span2.from, frequency), ...(span2.to ? { to: atOf(span2.to, frequency) } : {}) },
      });
      return plan;
    }
  }

  // One figure that the single look-ups do not give: a county's HMDA figure, the week of a Fed
  // meeting, a rate on outstanding mortgages, a county's jumbo threshold.
  const week = weekOf(span2.from);
  if (week) {
    const series = seriesFor(mainPlace);
    if (series) {
      plan.steps.push({ operation: 'value', query: { series, ...week }, label: `the week of ${span2.from?.value}` });
      return plan;
    }
  }
  if ((topic === 'hmda' && counties[0]) || topic === 'outstanding' || (topic === 'limit' && counties[0] && /\bjumbo\b/i.test(question))) {
    const series = seriesFor(mainPlace);
    if (!series) return plan.cannot.length > 0 ? plan : undefined;
    const at = atOf(span2.to ?? span2.from, frequency);
    plan.steps.push({ operation: 'value', query: { series, ...(at ? { at } : {}) } });
    return plan;
  }
  return plan.cannot.length > 0 ? plan : undefined;
}
