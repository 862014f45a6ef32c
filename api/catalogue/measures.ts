// The measures of the catalogue (data/catalogue/measures.yaml), read once and written out as one
// template per measure: the series families build their HMDA measures from it, the catalogue
// service searches it, and /ask's reader matches a question's phrases against its words. Imports
// nothing of the services, so any of them may read it.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../config.ts';
import {
  CatalogueFileSchema,
  type AxisValue,
  type CatalogueFile,
  type CountRule,
  type MeasureKind,
  type PlaceKind,
} from './file-schema.ts';

export type { CountRule, MeasureKind, PlaceKind };

export const CATALOGUE_FILE = path.join(PROJECT_ROOT, 'data', 'catalogue', 'measures.yaml');

export type Topic = 'rates' | 'outstanding' | 'limits' | 'income' | 'population' | 'hmda';

/** One measure: a series id with its place slot (`hmda/{place}/va_share`), or one national series (`pmms/30-year`). */
export interface MeasureTemplate {
  id: string;
  title: string;
  kind: MeasureKind;
  unit: string;
  topic: Topic;
  /** The places it exists for: `nation` alone for a series without a slot. */
  places: readonly PlaceKind[];
  /** The phrases people use for it (as written in the file). */
  words: readonly string[];
  /** What it stands for: `{program: 'va'}`, `{term: 15}`, `{sex: 'female'}`. */
  qualifiers: Readonly<Record<string, string | number>>;
  /** Shares of HMDA records: the templates of the part and the whole. */
  share?: { part: string; whole: string };
  /** What the figure is, in one sentence (HMDA definitions). */
  note?: string;
}

/** How an HMDA measure is computed from a place's counts of one year. */
export type HmdaFormula = { kind: 'count'; rule: CountRule } | { kind: 'ratio'; part: CountRule; whole: CountRule };

export interface HmdaMeasure {
  /** The last segment of its ids: `va_records`, `denial_rate`. */
  key: string;
  title: string;
  unit: string;
  note: string;
  formula: HmdaFormula;
}

const unique = (values: readonly string[]) => [...new Set(values)];

function placesOf(id: string, given: readonly PlaceKind[] | undefined): PlaceKind[] {
  if (given) return [...given];
  if (id.includes('{state}')) return ['state'];
  if (id.includes('{county}')) return ['county'];
  if (id.includes('{place}')) return ['nation', 'state', 'county'];
  return ['nation'];
}

/**
 * A template for every pair of two axes' values (an LTV tier and a FICO tier; an income level and a
 * household size): `{axis}` filled in the id and `{axis_title}` in the title, the words and
 * qualifiers of the grid and of both values joined.
 */
function pairs(
  grid: {
    id: string;
    title: string;
    kind: MeasureKind;
    unit: string;
    words: readonly string[];
    qualifiers?: MeasureTemplate['qualifiers'];
  },
  [first, firstValues]: readonly [string, readonly AxisValue[]],
  [second, secondValues]: readonly [string, readonly AxisValue[]],
  where: { topic: Topic; places: readonly PlaceKind[]; words?: readonly string[] },
): MeasureTemplate[] {
  return firstValues.flatMap((one) =>
    secondValues.map((other) => ({
      id: grid.id.replace(`{${first}}`, one.value).replace(`{${second}}`, other.value),
      title: grid.title.replace(`{${first}_title}`, one.title).replace(`{${second}_title}`, other.title),
      kind: grid.kind,
      unit: grid.unit,
      topic: where.topic,
      places: where.places,
      words: unique([...(where.words ?? []), ...grid.words, ...one.words, ...other.words]),
      qualifiers: { ...grid.qualifiers, ...one.qualifiers, ...other.qualifiers },
    })),
  );
}

const rateGrid = ({ rate_grid: grid }: CatalogueFile): MeasureTemplate[] =>
  pairs(grid, ['ltv', grid.ltv], ['fico', grid.fico], { topic: 'rates', places: ['nation'] });

function outstanding(file: CatalogueFile): MeasureTemplate[] {
  const family = file.outstanding;
  const templates: MeasureTemplate[] = [];
  for (const market of family.market)
    for (const measure of family.measure)
      for (const weight of family.weight) {
        const detail = [market.title, weight.title].join(', ');
        templates.push({
          id: family.id.replace('{market}', market.value).replace('{measure}', measure.value).replace('{weight}', weight.value),
          title: `${measure.title} (${detail})`,
          kind: measure.kind,
          unit: measure.unit,
          topic: 'outstanding',
          places: ['state'],
          words: unique([...family.words, ...measure.words, ...market.words, ...weight.words]),
          qualifiers: { ...measure.qualifiers, ...market.qualifiers, ...weight.qualifiers },
        });
      }
  return templates;
}

/** HUD's income figures of a county: the median family income, then each level's limit for 1 to 8 people. */
function income(file: CatalogueFile): MeasureTemplate[] {
  const { words, median, limit } = file.income;
  const limits = pairs(limit, ['level', limit.level], ['size', limit.size], { topic: 'income', places: ['county'], words });
  const [own] = entries([median], 'income');
  return [{ ...own!, words: unique([...words, ...median.words]) }, ...limits];
}

const entries = (list: CatalogueFile['limits'], topic: Topic): MeasureTemplate[] =>
  list.map((entry) => ({
    id: entry.id,
    title: entry.title,
    kind: entry.kind,
    unit: entry.unit,
    topic,
    places: placesOf(entry.id, entry.places),
    words: entry.words,
    qualifiers: entry.qualifiers,
  }));

const HMDA_PLACES: readonly PlaceKind[] = ['nation', 'state', 'county'];
const hmdaId = (key: string) => `hmda/{place}/${key}`;

/** The HMDA measures: the totals and rates, then a count and a share of records for every code. */
function hmdaMeasures(file: CatalogueFile): { templates: MeasureTemplate[]; measures: HmdaMeasure[] } {
  const { hmda } = file;
  const templates: MeasureTemplate[] = [];
  const measures: HmdaMeasure[] = [];
  for (const total of hmda.totals) {
    const formula: HmdaFormula = total.count ? { kind: 'count', rule: total.count } : { kind: 'ratio', ...total.ratio! };
    measures.push({ key: total.id, title: total.title, unit: total.unit, note: total.note, formula });
    templates.push({
      id: hmdaId(total.id),
      title: total.title,
      kind: total.kind,
      unit: total.unit,
      topic: 'hmda',
      places: HMDA_PLACES,
      words: unique([...total.words, ...hmda.words]),
      qualifiers: total.qualifiers,
      note: total.note,
    });
  }
  for (const { dimension, label, codes } of hmda.dimensions) {
    for (const entry of codes) {
      const count = entry.count ?? `${entry.name}_records`;
      const share = `${entry.name}_share`;
      const rule = { dimension, codes: [entry.code] };
      const countNote = `${entry.title}: the HMDA records whose ${label} is "${entry.code}", counted over every record of the year (applications, originations and purchased loans).`;
      const shareNote = `${entry.title} as a share of all HMDA records of the place and year: ${label} "${entry.code}" ÷ every record × 100.`;
      measures.push({ key: count, title: entry.title, unit: entry.unit, note: countNote, formula: { kind: 'count', rule } });
      measures.push({
        key: share,
        title: `${entry.title}, share of all records`,
        unit: 'percent',
        note: shareNote,
        formula: { kind: 'ratio', part: rule, whole: { dimension: 'actionTaken' } },
      });
      const words = unique([...entry.words, ...hmda.words]);
      templates.push(
        {
          id: hmdaId(count),
          title: entry.title,
          kind: 'count',
          unit: entry.unit,
          topic: 'hmda',
          places: HMDA_PLACES,
          words,
          qualifiers: entry.qualifiers,
          note: countNote,
        },
        {
          id: hmdaId(share),
          title: `${entry.title}, share of all records`,
          kind: 'share',
          unit: 'percent',
          topic: 'hmda',
          places: HMDA_PLACES,
          words: unique([...words, 'share', 'percent', 'percentage', 'proportion', 'fraction', 'what share', 'how much of']),
          qualifiers: entry.qualifiers,
          share: { part: hmdaId(count), whole: hmdaId('records') },
          note: shareNote,
        },
      );
    }
  }
  return { templates, measures };
}

/** One code of an HMDA field, as the catalogue names it: loan purpose "32" is cash-out refinancing. */
export interface HmdaCode {
  dimension: string;
  /** The field as people say it: "loan purpose", "action taken". */
  label: string;
  /** Other names of the field ("reason for denial"). */
  words: readonly string[];
  /** Whether the aggregates count it (a series exists for it) or it is in the code book only (denial reason). */
  counted: boolean;
  /** The template of its count, when counted (`hmda/{place}/cash_out_refinance_records`). */
  series?: string;
  code: string;
  title: string;
  /** What the code means as the public LAR spec words it, when the title (a count's) says it otherwise. */
  meaning?: string;
  /** The field's name in the CFPB's public LAR spec ("HOEPA Status"), when the spec has the field. */
  spec?: string;
}

export interface Catalogue {
  templates: readonly MeasureTemplate[];
  /** The code book: every code of every HMDA field the catalogue counts or explains, with what it stands for. */
  hmdaCodes: readonly HmdaCode[];
  /** The HMDA measures by key, in the file's order. */
  hmda: ReadonlyMap<string, HmdaMeasure>;
}

/** The catalogue a file holds; throws naming the file and the entry when it does not fit the schema. */
export function readCatalogue(file = CATALOGUE_FILE): Catalogue {
  const parsed = CatalogueFileSchema.safeParse(parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(`${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  const data = parsed.data;
  const hmda = hmdaMeasures(data);
  const templates = [
    ...entries(data.rates, 'rates'),
    ...rateGrid(data),
    ...outstanding(data),
    ...entries(data.limits, 'limits'),
    ...income(data),
    ...entries(data.population, 'population'),
    ...hmda.templates,
  ];
  const seen = new Set<string>();
  for (const template of templates) {
    if (seen.has(template.id)) throw new Error(`${file}: the measure ${template.id} is declared twice.`);
    seen.add(template.id);
  }
  for (const template of templates)
    if (template.places.some((kind) => kind !== 'nation') && !/\{(place|state|county)\}/.test(template.id))
      throw new Error(`${file}: ${template.id} exists for ${template.places.join(', ')} but has no place slot.`);
  const hmdaCodes = [
    ...data.hmda.dimensions.flatMap(({ dimension, label, spec, words, codes }) =>
      codes.map((entry) => ({
        dimension,
        label,
        words,
        counted: true,
        series: hmdaId(entry.count ?? `${entry.name}_records`),
        code: entry.code,
        title: entry.title,
        ...(entry.meaning === undefined ? {} : { meaning: entry.meaning }),
        ...(spec === undefined ? {} : { spec }),
      })),
    ),
    ...data.hmda.code_book.flatMap(({ dimension, label, spec, words, codes }) =>
      codes.map((entry) => ({
        dimension,
        label,
        words,
        counted: false,
        code: entry.code,
        title: entry.title,
        ...(spec === undefined ? {} : { spec }),
      })),
    ),
  ];
  return { templates, hmdaCodes, hmda: new Map(hmda.measures.map((measure) => [measure.key, measure])) };
}

let held: Catalogue | undefined;

/** The service's catalogue, read on first use. */
export function catalogue(): Catalogue {
  held ??= readCatalogue();
  return held;
}
