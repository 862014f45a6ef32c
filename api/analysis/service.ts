// The analysis service: answers each operation of the contract over the series the series service
// holds (it reads no table itself), and states what it used: every input's figures, source and
// as-of date, and the method in one sentence. REST, /ask's built-in reader and its model call it.
import { BoundedCache } from '../platform/bounded-cache.ts';
import type { SeriesService } from '../series/service.ts';
import type { HeldSeries } from '../series/types.ts';
import type { FamilyId } from '../series/contract.ts';
import { seriesUrl } from '../series/answer.ts';
import { BadRequestError, NotFoundError } from '../platform/errors.ts';
import { parseOrThrow } from '../platform/validation.ts';
import { preSerialize, type PreSerialized } from '../platform/pre-serialized.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import type { Source } from '../platform/contract/sources.ts';
import {
  INTEREST_RATE_SERIES,
  QUERY_SCHEMAS,
  type AnalysisAnswer,
  type Input,
  type Operation,
  type Point,
  type QueryOf,
  type ResultOf,
} from './contract.ts';
import {
  describePoint,
  exactValue,
  formatValue,
  isInterestRate,
  listFormatter,
  observationsIn,
  pointAt,
  rangeOf,
  spanOf,
} from './points.ts';
import {
  change,
  conditionText,
  countOverTime,
  crossing,
  difference,
  extremes,
  longestRunMeeting,
  monthlyPayment,
  sharePercent,
  type Condition,
} from './arithmetic.ts';
import { crossSection, type CrossSection, type PlaceFilters } from './cross-section.ts';
import { stateByFips } from '../geo/states.ts';
import { describeMove, describeRunMeeting, describeStreak, largestMove, longestStreak } from './moves.ts';

/** Bytes of remembered answers (their JSON; the series they read are the series service's, not counted here). */
const MAX_REMEMBERED_BYTES = 8 * 1024 * 1024;

export interface AnalysisService {
  /** Validates `query` like the REST route does, then answers. */
  run<O extends Operation>(operation: O, query: unknown): Promise<AnalysisAnswer<O>>;
  /** The serialised answer for an already-validated query (the REST hot path), remembered until a series is re-read. */
  runJson<O extends Operation>(operation: O, query: QueryOf<O>): Promise<PreSerialized<AnalysisAnswer<O>>>;
}

type Read = { id: string; held: unknown } | { family: FamilyId; held: unknown };

/** What an operation used, gathered as it reads series. */
class Used {
  readonly inputs: Input[] = [];
  readonly notes = new Set<string>();
  readonly versions: DatasetVersion[] = [];
  /** What was read: an answer is remembered only while each is still the copy held. */
  readonly reads: Read[] = [];
  private readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  add(series: HeldSeries, points: Point[], versions: readonly DatasetVersion[]): void {
    const existing = this.inputs.find((input) => input.id === series.id);
    if (existing) existing.points.push(...points);
    else
      this.inputs.push({
        id: series.id,
        title: series.title,
        units: series.units,
        points,
        url: seriesUrl(this.baseUrl, series.id),
        source: { url: series.sourceUrl, as_of: series.asOf, name: series.sourceName },
      });
    for (const note of series.notes) this.notes.add(note);
    this.addVersions(versions);
    this.reads.push({ id: series.id, held: series });
  }

  addSection(section: CrossSection): void {
    this.inputs.push({
      id: section.template,
      title: section.title,
      units: section.units,
      points: [],
      url: `${this.baseUrl}/api/v1/series?family=${section.family}`,
      source: section.source,
    });
    if (section.residents)
      this.inputs.push({
        id: section.residents.template,
        title: section.residents.title,
        units: 'residents',
        points: [],
        url: `${this.baseUrl}/api/v1/series?family=population`,
        source: section.residents.source,
      });
    for (const note of section.notes) this.notes.add(note);
    this.addVersions(section.versions);
    this.reads.push({ family: section.family, held: section.members });
  }

  private addVersions(versions: readonly DatasetVersion[]): void {
    for (const version of versions)
      if (!this.versions.some((known) => known.dataset === version.dataset && known.version === version.version))
        this.versions.push(version);
  }

  sources(): Source[] {
    const sources = new Map<string, Source>();
    for (const input of this.inputs) if (!sources.has(input.source.url)) sources.set(input.source.url, input.source);
    return [...sources.values()];
  }
}

/** How many places a ranking's sentence names; the result holds every place ranked. */
const MAX_PLACES_NAMED = 25;

function thresholdOf(query: { above?: string | undefined; below?: string | undefined; equal?: string | undefined }): {
  op: Condition['op'];
  text: string;
} {
  const given = (['above', 'below', 'equal'] as const).filter((op) => query[op] !== undefined);
  const [op] = given;
  if (given.length !== 1 || !op)
    throw new BadRequestError("Give one of 'above', 'below' or 'equal': a number in the series' units, e.g. above=7.");
  return { op, text: query[op] as string };
}

/** The counties that met a condition, counted by state, most first (ties by name). */
function countByState(places: readonly { place: string }[]): { state: string; name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const { place } of places) counts.set(place.slice(0, 2), (counts.get(place.slice(0, 2)) ?? 0) + 1);
  return [...counts]
    .map(([fips, count]) => {
      const state = stateByFips(fips);
      return { state: state?.code ?? fips, name: state?.name ?? fips, count };
    })
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** The place filters a rank or count was given, as the cross-section takes them. */
function filtersOf(query: { places?: string[] | undefined; min_population?: number | undefined }): PlaceFilters {
  return { places: query.places, minPopulation: query.min_population };
}

const numeric = (text: string) => (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text.trim()) ? Number(text.trim()) : undefined);

/** The date of a series' first observation within a moment's span (a year, quarter, month or day). */
function firstObservation(series: HeldSeries, moment: string): string | undefined {
  const span = spanOf(moment);
  return observationsIn(series, span.start, span.end)[0]?.date;
}

function lastObservation(series: HeldSeries, moment: string): string | undefined {
  const span = spanOf(moment);
  return observationsIn(series, span.start, span.end).at(-1)?.date;
}

export function createAnalysisService({ series: seriesService, baseUrl }: { series: SeriesService; baseUrl: string }): AnalysisService {
  const remembered = new BoundedCache<{ json: string; reads: Read[] }>({
    maxBytes: MAX_REMEMBERED_BYTES,
    sizeOf: (entry, key) => 2 * (entry.json.length + key.length) + 64 * (entry.reads.length + 1),
  });

  async function read(id: string): Promise<{ series: HeldSeries; versions: readonly DatasetVersion[] }> {
    if (id.includes('*'))
      throw new BadRequestError(`'${id}' has a '*': only rank and count take a template of places; give one series id here.`);
    return seriesService.read(id);
  }

  async function pointOf(
    id: string,
    moment: string | undefined,
    used: Used,
    range?: { from?: string | undefined; to?: string | undefined },
  ): Promise<{ series: HeldSeries; point: Point }> {
    const { series, versions } = await read(id);
    const point = pointAt(series, moment, range);
    used.add(series, [point], versions);
    return { series, point };
  }

  const say = (series: HeldSeries, point: Point) => describePoint(point, series.units, series.frequency);
  const pointsUnit = (units: string) => (units === 'percent' ? 'percentage points' : units);

  type Computed<O extends Operation> = { answer: string; method: string; result: ResultOf<O> };
  const operations: { [O in Operation]: (query: QueryOf<O>, used: Used) => Promise<Computed<O>> } = {
    async value(query, used) {
      if (query.at !== undefined && (query.from !== undefined || query.to !== undefined))
        throw new BadRequestError(
          "Give either 'at' (one moment: the figure then) or 'from'/'to' (a range: the mean of its observations), not both.",
        );
      const { series, point } = await pointOf(query.series, query.at, used, { from: query.from, to: query.to });
      const computedBy = point.period === undefined ? undefined : series.computed?.[point.period];
      return {
        answer: `${series.title}: ${say(series, point)}${computedBy ? ', computed (not published)' : ''}.`,
        method: computedBy
          ? `Computed here, not published: ${computedBy}.`
          : point.how === 'mean'
            ? 'The mean of the observations published in the period, as published (no other adjustment).'
            : 'The observation as published.',
        result: { point, units: series.units },
      };
    },
    async change(query, used) {
      const { series } = await read(query.series);
      const last = series.dates.at(-1);
      // A start after the last observation would be the last observation itself: no change to measure.
      if (query.from !== 'latest' && last !== undefined && spanOf(query.from).start > last)
        throw new NotFoundError(
          `${series.id} has no figure from ${query.from} on: its latest observation is of ${last}, so there is no change to measure. Give a 'from' before ${last}.`,
        );
      // "Since the start of 2025": the period's first observation, not its mean.
      const first = query.from_first && query.from !== 'latest' ? firstObservation(series, query.from) : undefined;
      const start = await pointOf(query.series, first ?? query.from, used);
      // "How much did the rate change in 2024": to the period's last observation, not its mean.
      const periodEnd = query.to_last && query.to !== undefined && query.to !== 'latest' ? lastObservation(series, query.to) : undefined;
      const end = await pointOf(query.series, periodEnd ?? query.to ?? 'latest', used);
      const computed = change(start.point.value, end.point.value);
      const direction = computed.change === null ? '' : computed.change > 0 ? 'up' : computed.change < 0 ? 'down' : 'unchanged';
      const units = start.series.units;
      const size = (amount: number) =>
        units === 'US dollars'
          ? formatValue(amount, units)
          : `${amount.toLocaleString('en-US', { maximumFractionDigits: 4 })} ${pointsUnit(units)}`;
      const amount =
        computed.change === null
          ? 'no change can be computed'
          : `${direction} ${size(Math.abs(computed.change))}${computed.percent_change === null ? '' : ` (${computed.percent_change > 0 ? '+' : ''}${computed.percent_change}%)`}`;
      return {
        answer: `${start.series.title}: ${say(start.series, start.point)} to ${say(end.series, end.point)}, ${amount}.`,
        method: "Change = end − start in the series' units (percentage points for rates); percent change = (end − start) ÷ start × 100.",
        result: { start: start.point, end: end.point, units, ...computed },
      };
    },
    async compare(query, used) {
      const first = await pointOf(query.series, query.at, used);
      const second = await pointOf(query.other, query.other_at ?? query.at, used);
      if (first.series.units !== second.series.units)
        used.notes.add(
          `The two series are in different units (${first.series.units}, ${second.series.units}): the difference mixes them; the ratio is still their quotient.`,
        );
      const computed = difference(first.point.value, second.point.value);
      return {
        answer:
          `${first.series.title}: ${say(first.series, first.point)}; ${second.series.title}: ${say(second.series, second.point)}. ` +
          `Difference ${computed.difference === null ? 'n/a' : first.series.units === 'US dollars' ? formatValue(computed.difference, 'US dollars') : `${computed.difference} ${pointsUnit(first.series.units)}`}, ratio ${computed.ratio ?? 'n/a'}.`,
        method: 'Difference = first − second; ratio = first ÷ second, each figure taken as stated for its series and moment.',
        result: { first: first.point, second: second.point, units: first.series.units, ...computed },
      };
    },
    async share(query, used) {
      const part = await pointOf(query.part, query.at, used);
      const whole = await pointOf(query.whole, query.at, used);
      if (query.plus !== undefined) {
        // Two parts together ("refinances, cash-out ones too"): their sum, then its share.
        const plus = await pointOf(query.plus, query.at, used);
        const sum = part.point.value === null || plus.point.value === null ? null : part.point.value + plus.point.value;
        const share = sharePercent(sum, whole.point.value);
        return {
          answer: `${part.series.title}: ${say(part.series, part.point)}, plus ${plus.series.title}: ${say(plus.series, plus.point)}, together ${formatValue(sum, part.series.units)}: ${share === null ? 'n/a' : `${share}% (${share.toFixed(1)}% to one decimal)`} of ${whole.series.title}: ${say(whole.series, whole.point)}.`,
          method: 'Share = (part + second part) ÷ whole × 100, all for the same moment.',
          result: { part: { ...part.point, value: sum }, whole: whole.point, share_percent: share },
        };
      }
      const share = sharePercent(part.point.value, whole.point.value);
      return {
        answer: `${part.series.title}: ${say(part.series, part.point)}, ${share ?? 'n/a'}% of ${whole.series.title}: ${say(whole.series, whole.point)}.`,
        method: 'Share = part ÷ whole × 100, both for the same moment.',
        result: { part: part.point, whole: whole.point, share_percent: share },
      };
    },
    async rank(query, used) {
      const among = query.among ?? (query.state ? 'counties' : 'states');
      const section = await crossSection(seriesService, query.series, among, query.state, query.at, query.per, filtersOf(query));
      used.addSection(section);
      const members = section.ranked(query.order, query.limit);
      // Places tied with the last one are all in the result; the sentence names the first of them.
      const listed = members.slice(0, MAX_PLACES_NAMED);
      const more = members.length - listed.length;
      const format = listFormatter(
        members.map((member) => member.value),
        section.units,
      );
      const list =
        listed.map((member) => `${member.rank}. ${member.name} ${format(member.value)}`).join('; ') +
        (more > 0 ? `; and ${more} more ${among} tied at ${format(members.at(-1)?.value ?? null)}` : '');
      const tiedFirst = members.filter((member) => member.rank === 1).length;
      const ties = tiedFirst > 1 ? ` ${tiedFirst} ${among} tie for first at ${format(members[0]?.value ?? null)}.` : '';
      return {
        answer: `${section.title}, ${query.order} first (${section.period}): ${list}.${ties}`,
        method: `Each ${among === 'states' ? 'state' : 'county'}'s figure for the period, sorted; tied places share a rank (1, 1, 3) and places tied with the last one shown are kept.`,
        result: { order: query.order, period: section.period, members, ranked: section.size, units: section.units },
      };
    },
    async count(query, used) {
      const { op, text } = thresholdOf(query);
      if (query.series.includes('*')) {
        const section = await crossSection(
          seriesService,
          query.series,
          query.among ?? (query.state ? 'counties' : 'states'),
          query.state,
          query.at,
          undefined,
          filtersOf(query),
        );
        used.addSection(section);
        let threshold = numeric(text);
        if (threshold === undefined) {
          const reference = await pointOf(text, query.at ?? section.periodMoment, used);
          threshold = reference.point.value ?? NaN;
        }
        const condition: Condition = { op, threshold };
        const places = section.meeting(condition);
        const byState = query.by === 'state' ? countByState(places) : undefined;
        const grouped = byState
          ? ` By state, most first: ${byState
              .slice(0, 10)
              .map((group) => `${group.name} ${group.count}`)
              .join(', ')}${byState.length > 10 ? ` (and ${byState.length - 10} more states)` : ''}.`
          : '';
        return {
          answer: `${places.length} of ${section.size} places have ${section.title} ${conditionText(condition)} (${section.period}).${grouped}`,
          method: `The places whose figure for the period is ${op === 'equal' ? '' : 'strictly '}${conditionText(condition)}, counted${byState ? ', in all and by state' : ''}.`,
          result: {
            count: places.length,
            out_of: section.size,
            condition: conditionText(condition),
            threshold,
            first: null,
            last: null,
            places,
            ...(byState ? { by_state: byState } : {}),
          },
        };
      }
      const threshold = numeric(text);
      if (threshold === undefined)
        throw new BadRequestError(
          `Over time, '${op}' must be a number in the series' units (e.g. ${op}=7); a series threshold works across places (a series id with '*').`,
        );
      const { series, versions } = await read(query.series);
      const span = rangeOf(query.from ?? query.at, query.to ?? query.at, series);
      const condition: Condition = { op, threshold };
      const counted = countOverTime(series, span, condition);
      used.add(series, [], versions);
      return {
        answer:
          `${series.title} was ${conditionText(condition)} in ${counted.count} of ${counted.out_of} ${series.frequency} observations from ${span.start} to ${span.end}` +
          (counted.first && counted.last
            ? ` (first ${counted.first.period ?? counted.first.date}, last ${counted.last.period ?? counted.last.date}).`
            : '.'),
        method: `The observations published from ${span.start} to ${span.end} whose value is ${op === 'equal' ? '' : 'strictly '}${conditionText(condition)}, counted.`,
        result: {
          count: counted.count,
          out_of: counted.out_of,
          condition: conditionText(condition),
          threshold,
          first: counted.first,
          last: counted.last,
        },
      };
    },
    async crossing(query, used) {
      const { op, text } = thresholdOf(query);
      const threshold = numeric(text);
      if (threshold === undefined) throw new BadRequestError(`'${op}' must be a number in the series' units, e.g. ${op}=6.`);
      const { series, versions } = await read(query.series);
      const span = rangeOf(query.from, query.to, series);
      const condition: Condition = { op, threshold };
      const found = crossing(series, span, condition, query.which);
      used.add(series, [], versions);
      const when = (value: { date: string; period?: string } | null) => (value ? (value.period ?? value.date) : '');
      const answer = !found.found
        ? `${series.title} was never ${conditionText(condition)} from ${span.start} to ${span.end}.`
        : found.meets_now && query.which === 'last'
          ? // The latest observation may be weeks old: say its date, never "now".
            `${series.title} was ${conditionText(condition)} at its latest observation, ${formatValue(found.latest?.value ?? null, series.units)} on ${when(found.latest)}, and had been since ${when(found.run_start)}.`
          : `The ${query.which} time ${series.title} was ${conditionText(condition)} was ${when(found.found)} (${formatValue(found.found.value, series.units)})` +
            (query.which === 'last'
              ? `; the latest figure is ${formatValue(found.latest?.value ?? null, series.units)} (${when(found.latest)}).`
              : '.');
      return {
        answer,
        method: `The ${query.which} published observation from ${span.start} to ${span.end} strictly ${op} ${threshold}.`,
        result: { which: query.which, condition: conditionText(condition), ...found },
      };
    },
    async extremes(query, used) {
      const { series, versions } = await read(query.series);
      const span = rangeOf(query.from, query.to, series);
      const found = extremes(series, span);
      used.add(series, [], versions);
      if (found.observations === 0)
        throw new NotFoundError(
          `${series.id} has no figure from ${span.start} to ${span.end}: it runs from ${series.dates[0]} to ${series.dates.at(-1)}.`,
        );
      return {
        answer: `${series.title} from ${span.start} to ${span.end}: low ${formatValue(found.low, series.units)} (${(found.low_periods ?? found.low_dates).join(', ')}), high ${formatValue(found.high, series.units)} (${(found.high_periods ?? found.high_dates).join(', ')}).`,
        method: `The lowest and highest of the ${found.observations} published observations in the range, with every date each was reached.`,
        result: { units: series.units, ...found },
      };
    },
    async 'per-resident'(query, used) {
      const figure = await pointOf(query.series, query.at, used);
      const place = figure.series.id.split('/').find((segment) => /^([A-Z]{2}|\d{5})$/.test(segment));
      if (!place || place === 'US')
        throw new BadRequestError(
          `${figure.series.id} is not a state's or county's series: give one such as hmda/FL/originations or hmda/17031/originations.`,
        );
      const year = (figure.point.period ?? figure.point.date).slice(0, 4);
      const population = await seriesService.read(`population/${place}`);
      const vintage = population.series.periods?.includes(year) ? year : 'latest';
      const residents = pointAt(population.series, vintage);
      used.add(population.series, [residents], population.versions);
      if (vintage !== year)
        used.notes.add(
          `No population of ${year} is held: the ${residents.period ?? residents.date.slice(0, 4)} figure is used, so the ratio divides a ${year} count by residents of another year.`,
        );
      const value =
        figure.point.value === null || residents.value === null || residents.value === 0
          ? null
          : Math.round((figure.point.value / residents.value) * query.per * 100) / 100;
      return {
        answer: `${figure.series.title}: ${say(figure.series, figure.point)}, ${value ?? 'n/a'} per ${query.per.toLocaleString('en-US')} residents (${residents.value?.toLocaleString('en-US')} residents, ${residents.period ?? residents.date.slice(0, 4)}).`,
        method: `Per-resident figure = the figure ÷ residents × ${query.per}, residents as the HMDA Data Browser counts them.`,
        result: { figure: figure.point, residents, per: query.per, value },
      };
    },
    async moves(query, used) {
      const { series, versions } = await read(query.series);
      const span = rangeOf(query.from, query.to, series);
      used.add(series, [], versions);
      return describeMove(series, span, query.direction, largestMove(series, span, query.direction));
    },
    async streak(query, used) {
      const { series, versions } = await read(query.series);
      const span = rangeOf(query.from, query.to, series);
      used.add(series, [], versions);
      if (query.above === undefined && query.below === undefined)
        return describeStreak(series, span, query.direction, longestStreak(series, span, query.direction));
      const { op, text } = thresholdOf(query);
      const threshold = numeric(text);
      if (threshold === undefined) throw new BadRequestError(`'${op}' must be a number in the series' units, e.g. ${op}=6.`);
      const condition: Condition = { op, threshold };
      return describeRunMeeting(series, span, condition, longestRunMeeting(series, span, condition));
    },
    async payment(query, used) {
      if ((query.rate === undefined) === (query.series === undefined))
        throw new BadRequestError("Give one of 'rate' (a percent, e.g. 6.5) or 'series' (a rate series such as pmms/30-year).");
      let rate = query.rate;
      let point: Point | null = null;
      let where = '';
      if (query.series !== undefined) {
        const found = await pointOf(query.series, query.at, used);
        if (!isInterestRate(found.series))
          throw new BadRequestError(`${found.series.id} is not an interest rate: give ${INTEREST_RATE_SERIES}.`);
        point = found.point;
        rate = exactValue(found.point) ?? undefined;
        where = ` (${found.series.title}: ${say(found.series, found.point)})`;
      }
      if (rate === undefined) throw new NotFoundError('The rate series has no figure for that moment.');
      const computed = monthlyPayment(query.amount, rate, query.term_years);
      return {
        // The rate as the point shows it (a mean to 4 decimals); the payment is computed from the rate itself.
        answer: `A $${query.amount.toLocaleString('en-US')} ${query.term_years}-year fixed loan at ${point?.value ?? rate}%${where} has a monthly principal and interest payment of $${computed.monthly_payment.toLocaleString('en-US', { minimumFractionDigits: 2 })}; total interest over the term $${computed.total_interest.toLocaleString('en-US', { minimumFractionDigits: 2 })}.`,
        method:
          'Monthly payment = P·r ÷ (1 − (1 + r)^−n), with r the annual rate ÷ 12 and n the number of months; taxes, insurance and mortgage insurance are not included.',
        result: { amount: query.amount, rate_percent: rate, term_years: query.term_years, ...computed, rate: point },
      };
    },
  };

  async function compute<O extends Operation>(operation: O, query: QueryOf<O>): Promise<{ answer: AnalysisAnswer<O>; reads: Read[] }> {
    const used = new Used(baseUrl);
    const run = operations[operation] as (query: QueryOf<O>, used: Used) => Promise<Computed<O>>;
    const computed = await run(query, used);
    const answer = {
      operation,
      answer: computed.answer,
      method: computed.method,
      result: computed.result,
      inputs: used.inputs,
      notes: [...used.notes],
      sources: used.sources(),
      dataset_versions: used.versions,
    } as unknown as AnalysisAnswer<O>;
    return { answer, reads: used.reads };
  }

  /** Whether everything an answer read is still the copy held (a look-up in memory; a sync replaces copies). */
  async function stillHeld(reads: readonly Read[]): Promise<boolean> {
    try {
      for (const read of reads) {
        const current = 'id' in read ? (await seriesService.read(read.id)).series : (await seriesService.readFamily(read.family)).series;
        if (current !== read.held) return false;
      }
      return true;
    } catch {
      return false;
    }
  }

  return {
    async run(operation, input) {
      const query = parseOrThrow(QUERY_SCHEMAS[operation], input ?? {}, 'query') as QueryOf<typeof operation>;
      return (await compute(operation, query)).answer;
    },
    async runJson(operation, query) {
      const key = `${operation}\u0000${JSON.stringify(query)}`;
      const hit = remembered.get(key);
      if (hit && (await stillHeld(hit.reads))) return hit.json as PreSerialized<AnalysisAnswer<typeof operation>>;
      const { answer, reads } = await compute(operation, query);
      const json = preSerialize(answer);
      remembered.set(key, { json, reads });
      return json;
    },
  };
}
