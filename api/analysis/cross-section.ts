// One measure across places at one moment: every state's (or county's) figure of a series template
// such as `hmda/*/originations` or `loan-limits/conforming/*`, for ranking and counting.
import { STATE_CODES, findState } from '../geo/states.ts';
import { BadRequestError, NotFoundError } from '../platform/errors.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import type { Source } from '../platform/contract/sources.ts';
import type { FamilyId } from '../series/contract.ts';
import type { SeriesService } from '../series/service.ts';
import type { HeldSeries } from '../series/types.ts';
import { meets, rankTies, type Condition } from './arithmetic.ts';
import { pointAt } from './points.ts';

export interface Member {
  rank: number;
  place: string;
  name: string;
  series: string;
  value: number;
  date: string;
  period?: string;
}

export interface CrossSection {
  template: string;
  family: FamilyId;
  title: string;
  units: string;
  source: Source;
  notes: string[];
  versions: readonly DatasetVersion[];
  /** Where the residents of a per-resident ranking come from. */
  residents?: { template: string; title: string; source: Source };
  /** The family's held series the section was read from (an answer is kept while it is still held). */
  members: ReadonlyMap<string, HeldSeries>;
  /** Places with a figure for the moment. */
  size: number;
  /** "2022", or "latest" when places' latest figures are of different periods. */
  period: string;
  /** The moment another series is valued at to compare with these figures. */
  periodMoment: string;
  ranked(order: 'highest' | 'lowest', limit: number): Member[];
  meeting(condition: Condition): Member[];
}

const STATES = new Set<string>(STATE_CODES);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function residentsInput(held: ReadonlyMap<string, HeldSeries>): NonNullable<CrossSection['residents']> {
  const any = held.values().next().value as HeldSeries | undefined;
  return {
    template: 'population/*',
    title: 'Resident population of each place',
    source: { url: any?.sourceUrl ?? '', as_of: any?.asOf ?? null, name: any?.sourceName ?? 'Population' },
  };
}

/** Residents of each place, to rank figures per resident. */
async function residents(series: SeriesService): Promise<{ held: ReadonlyMap<string, HeldSeries>; versions: readonly DatasetVersion[] }> {
  const { series: held, versions } = await series.readFamily('population');
  return { held, versions };
}

/** Which places a cross-section keeps: those listed, those with more residents than a number. */
export interface PlaceFilters {
  /** State codes or county FIPS codes. */
  places?: readonly string[] | undefined;
  /** Only places whose residents (of the figure's year, or the latest vintage) are more than this. */
  minPopulation?: number | undefined;
}

/** "Harris County", "harris", "Harris county, TX" → "harris": a county's name as a list may write it. */
const nameKey = (name: string) =>
  name
    .toLowerCase()
    .replace(/,.*$/, '')
    .replace(/\b(county|parish|borough|census area|city and borough|municipality)\b/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Whether a place is one of those listed: by state code or name, county FIPS, or county name. */
function listedPlaces(places: readonly string[]): { has(place: string, name: string): boolean; text: string } {
  const codes = new Set<string>();
  const names = new Set<string>();
  for (const written of places) {
    const state = findState(written.trim());
    if (state) codes.add(state.code);
    else if (/^\s*\d{5}\s*$/.test(written)) codes.add(written.trim());
    else names.add(nameKey(written));
  }
  return {
    has: (place, name) => codes.has(place) || names.has(nameKey(name)),
    text: [...codes, ...places.filter((written) => names.has(nameKey(written)))].join(', '),
  };
}

/** The template in the canonical form of its family (`hmda/*\/va` → `hmda/*\/va_records`), lower case. */
function canonicalTemplate(series: SeriesService, lower: string, among: 'states' | 'counties'): string {
  const sample = among === 'states' ? 'xx' : '00000';
  const canonical = series.canonicalId(lower.replace('*', sample))?.toLowerCase();
  return canonical?.split('/').includes(sample) ? canonical.replace(sample, '*') : lower;
}

export async function crossSection(
  series: SeriesService,
  template: string,
  among: 'states' | 'counties',
  state: string | undefined,
  at: string | undefined,
  per?: number,
  filters: PlaceFilters = {},
): Promise<CrossSection> {
  const written = template.trim().toLowerCase();
  if (written.split('/').filter((segment) => segment === '*').length !== 1 || (written.match(/\*/g) ?? []).length !== 1) {
    throw new BadRequestError(
      `'${template}' must name one place as '*', e.g. hmda/*/originations (states) or loan-limits/conforming/* (counties).`,
    );
  }
  if (among === 'states' && state !== undefined)
    throw new BadRequestError("'state' narrows counties: give among=counties with it, or leave it out to rank the states.");
  const lower = canonicalTemplate(series, written, among);
  const family = series.familyOf(lower.replace('*', among === 'states' ? 'xx' : '00000'));
  if (!family)
    throw new NotFoundError(
      `No series family has ids like '${template}' for ${among}; find_series {"query":"<measure>"} (REST GET /api/v1/series?query=) gives the ids (states: hmda/*/originations, nmdb/*/ave_intrate; counties: loan-limits/conforming/*, hmda/*/records).`,
    );
  const { series: held, versions: familyVersions } = await series.readFamily(family);
  const population = per === undefined && filters.minPopulation === undefined ? undefined : await residents(series);
  const listed = filters.places ? listedPlaces(filters.places) : undefined;
  const versions = population ? [...familyVersions, ...population.versions] : familyVersions;
  const vintages = new Set<string>();
  const pattern = new RegExp(`^${escape(lower).replace('\\*', among === 'states' ? '([a-z]{2})' : '(\\d{5})')}$`);
  const entries: Omit<Member, 'rank'>[] = [];
  let first: HeldSeries | undefined;
  for (const id of held.idsLike?.(lower) ?? held.keys()) {
    const match = pattern.exec(id.toLowerCase());
    const candidate = match ? held.get(id) : undefined;
    if (!match || !candidate) continue;
    const place = (match[1] as string).toUpperCase();
    if (among === 'states' ? !STATES.has(place) : state !== undefined && candidate.state !== state) continue;
    first ??= candidate;
    const name = candidate.place ?? findState(place)?.name ?? place;
    if (listed && !listed.has(place, name)) continue;
    let point;
    try {
      point = pointAt(candidate, at);
    } catch (error) {
      if (error instanceof NotFoundError) continue; // no figure for that moment: not ranked
      throw error;
    }
    if (point.value === null) continue;
    let value = point.value;
    if (population) {
      const people = population.held.get(`population/${place}`);
      if (!people) continue;
      const year = (point.period ?? point.date).slice(0, 4);
      const count = pointAt(people, people.periods?.includes(year) ? year : 'latest');
      if (!count.value) continue;
      if (filters.minPopulation !== undefined && count.value <= filters.minPopulation) continue;
      vintages.add(count.period ?? count.date.slice(0, 4));
      if (per !== undefined) value = Math.round((point.value / count.value) * per * 100) / 100;
    }
    entries.push({
      place,
      name,
      series: id,
      value,
      date: point.date,
      ...(point.period === undefined ? {} : { period: point.period }),
    });
  }
  if (!first)
    throw new NotFoundError(
      `No series matches '${template}'${state ? ` in ${state}` : ''}; find_series {"query":"<measure>"} (REST GET /api/v1/series?query=) gives the ids.`,
    );
  if (entries.length === 0)
    throw new NotFoundError(
      `No place${listed || filters.minPopulation !== undefined ? ' the filters keep' : ''} has a figure of '${template}' for ${at ?? 'the latest period'}.`,
    );
  const periods = new Set(entries.map((entry) => entry.period ?? entry.date));
  const period = at !== undefined && at !== 'latest' ? at : periods.size === 1 ? ([...periods][0] as string) : 'latest';
  const where = among === 'states' ? 'each state' : state ? `each county of ${findState(state)?.name ?? state}` : 'each county';
  const title = first.place ? first.title.replace(first.place, where) : `${first.title} (${where})`;
  return {
    template: lower,
    family,
    title: per === undefined ? title : `${title}, per ${per.toLocaleString('en-US')} residents`,
    units: per === undefined ? first.units : `${first.units} per ${per.toLocaleString('en-US')} residents`,
    source: { url: first.sourceUrl, as_of: first.asOf, name: first.sourceName },
    notes: [
      ...first.notes,
      ...(per === undefined
        ? []
        : [
            `Residents as the HMDA Data Browser counts them (${[...vintages].join(', ')} figures); a place's figure ÷ its residents × ${per}.`,
          ]),
      ...(filters.minPopulation === undefined
        ? []
        : [
            `Only places with more than ${filters.minPopulation.toLocaleString('en-US')} residents (HMDA Data Browser figures, ${[...vintages].join(', ')}).`,
          ]),
      ...(listed ? [`Only the places asked for: ${listed.text}.`] : []),
    ],
    versions,
    ...(population ? { residents: residentsInput(population.held) } : {}),
    members: held,
    size: entries.length,
    period,
    periodMoment: period === 'latest' ? 'latest' : period,
    ranked: (order, limit) => rankTies(entries, order, limit),
    meeting: (condition) =>
      rankTies(
        entries.filter((entry) => meets(entry.value, condition)),
        'highest',
        entries.length,
      ),
  };
}
