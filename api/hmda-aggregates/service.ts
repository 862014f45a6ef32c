// The HMDA aggregates service: national, state and county summaries of the official FFIEC aggregates
// (action taken with approval and denial rates, loan types, purposes, liens, demographics) and the
// largest filers of the 2020 transmittal sheet. Backs /ask's HMDA answers, MCP tools and statistics.
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetStatus } from '../platform/datasets.ts';
import { missingDatasetError } from '../platform/dataset-states.ts';
import { BadRequestError, NotFoundError } from '../platform/errors.ts';
import { matchKey } from '../geo/county-names.ts';
import { HUD_INCOME_DATASET, incomeAreas, incomeYears, type IncomeArea } from '../statistics/income.ts';
import { DEFINITIONS, PLACE_CODES, STATE_BY_FIPS, codeLabel, decisionRates, placeCode, placeName } from './labels.ts';
import {
  DATA_BROWSER_URL,
  HMDA_AGGREGATES_DATASET,
  HMDA_LENDERS_DATASET,
  HMDA_MAPS_URL,
  HUD_INCOME_LIMITS_URL,
  aggregateYears,
  aggregatesOf,
  countyAggregates,
  filerTotals,
  filers,
  lenderYears,
  total,
  transmittalSheetEntry,
  type Dimensions,
} from './reads.ts';

export interface CodeCount {
  code: string;
  label: string;
  count: number;
  /** Percent of all records of the geography and year, two decimals. */
  share_percent: number;
}

export interface AggregateSummary {
  year: number;
  geography: { level: 'nation' | 'state' | 'county'; code: string; name: string };
  records: number;
  approval_rate_percent: number | null;
  denial_rate_percent: number | null;
  definitions: typeof DEFINITIONS;
  action_taken: CodeCount[];
  loan_type: CodeCount[];
  loan_purpose: CodeCount[];
  lien_status: CodeCount[];
  loan_product: CodeCount[];
  dwelling_category: CodeCount[];
  total_units: CodeCount[];
  construction_method: CodeCount[];
  demographics: { race: CodeCount[]; ethnicity: CodeCount[]; sex: CodeCount[]; age: CodeCount[] };
  as_of: string;
  source: string;
  source_url: string;
}

export interface TopLenders {
  year: number;
  note: string;
  total_records: number;
  lender_count: number;
  lenders: {
    rank: number;
    lei: string;
    name: string;
    agency: string;
    state: string | null;
    city: string | null;
    records: number;
    share_percent: number;
  }[];
  as_of: string;
  source: string;
  source_url: string;
}

export interface AggregateYears {
  aggregates: number[];
  lenders: number[];
  note: string;
  source_url: string;
}

export interface HmdaAggregatesService {
  summary(params?: { year?: unknown; state?: unknown; county?: unknown }): Promise<AggregateSummary>;
  topLenders(params?: { year?: unknown; limit?: unknown }): Promise<TopLenders>;
  years(): Promise<AggregateYears>;
  /** HUD's median family income and income limits of a county (5-digit FIPS), for a fiscal year or the latest loaded. */
  incomeLimits(params: { county: string; fiscalYear?: number }): Promise<IncomeLimits>;
}

export interface IncomeLimits {
  areas: IncomeArea[];
  /** The fiscal years loaded. */
  years: number[];
  source_url: string;
  as_of: string | null;
}

const SOURCE = 'FFIEC HMDA aggregates (HMDA Maps state and county files, Data Browser record counts), CFPB/FFIEC';
const round2 = (value: number) => Math.round(value * 100) / 100;

function parseYear(value: unknown, now: number): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = String(value).trim();
  if (!/^\d{4}$/.test(text) || Number(text) < 1990 || Number(text) > now + 1) {
    throw new BadRequestError(
      `Invalid value for 'year': ${JSON.stringify(String(value)).slice(0, 40)}. Give a four-digit year such as 2024.`,
    );
  }
  return Number(text);
}

function ordered(dimension: string, counts: Record<string, number>, records: number): CodeCount[] {
  return Object.entries(counts)
    .map(([code, count]) => ({
      code,
      label: codeLabel(dimension, code),
      count,
      share_percent: records > 0 ? round2((count / records) * 100) : 0,
    }))
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
}

export function createHmdaAggregatesService({
  db,
  datasets,
  clock = () => new Date(),
}: {
  db: Queryable;
  datasets: DatasetStatus;
  clock?: () => Date;
}): HmdaAggregatesService {
  /** The years loaded, after the dataset state check every face words the same way (503 otherwise). */
  async function availableYears(): Promise<{ years: number[]; asOf: string }> {
    const record = await datasets.require(HMDA_AGGREGATES_DATASET);
    const years = await aggregateYears(db);
    // A record without rows is a load that published nothing: for a reader, never loaded.
    if (years.length === 0) throw missingDatasetError(HMDA_AGGREGATES_DATASET, { state: 'never_loaded' });
    return { years, asOf: record.asOf ?? '' };
  }

  async function resolveYear(value: unknown): Promise<{ year: number; asOf: string }> {
    const requested = parseYear(value, clock().getUTCFullYear());
    const { years, asOf } = await availableYears();
    if (requested === undefined) return { year: years.at(-1) as number, asOf };
    if (!years.includes(requested)) {
      throw new NotFoundError(`No HMDA aggregates for ${requested}. Years available: ${years.join(', ')}.`);
    }
    return { year: requested, asOf };
  }

  async function resolveCounty(value: unknown, state: string | undefined): Promise<{ fips: string; name: string }> {
    const text = String(value).trim();
    if (/^\d{5}$/.test(text)) {
      const countyState = STATE_BY_FIPS.get(text.slice(0, 2));
      if (!countyState) throw new BadRequestError(`Invalid value for 'county': "${text}" does not start with a state FIPS code.`);
      if (state && countyState !== state)
        throw new BadRequestError(`County ${text} is in ${countyState}, not ${state}; drop 'state' or give a county of ${state}.`);
      const { rows } = await db
        .query<{ name: string }>('SELECT name FROM counties WHERE fips = $1', [text])
        .catch(() => ({ rows: [] as { name: string }[] }));
      return { fips: text, name: rows[0] ? `${rows[0].name}, ${countyState}` : `County ${text}, ${countyState}` };
    }
    if (!state)
      throw new BadRequestError(
        `Invalid value for 'county': give a 5-digit FIPS code (e.g. 08031), or a county name together with 'state'.`,
      );
    const key = matchKey(text);
    const { rows } = await db
      .query<{ fips: string; name: string; match_key: string }>('SELECT fips, name, match_key FROM counties WHERE state = $1', [state])
      .catch(() => ({ rows: [] as { fips: string; name: string; match_key: string }[] }));
    const found = rows.find((row) => row.match_key === key || matchKey(row.name) === key || matchKey(row.name) === `${key}COUNTY`);
    if (!found)
      throw new BadRequestError(
        `Unknown county "${text.slice(0, 60)}" in ${state}; give its 5-digit FIPS code or its name as the Census lists it.`,
      );
    return { fips: found.fips, name: `${found.name}, ${state}` };
  }

  return {
    async summary(params = {}) {
      let state: string | undefined;
      if (params.state !== undefined && params.state !== null && params.state !== '') {
        state = placeCode(String(params.state));
        if (!state)
          throw new BadRequestError(
            `Invalid value for 'state': ${JSON.stringify(String(params.state)).slice(0, 40)}. Valid values: ${PLACE_CODES.join(', ')}.`,
          );
      }
      const county =
        params.county !== undefined && params.county !== null && params.county !== ''
          ? await resolveCounty(params.county, state)
          : undefined;
      const { year, asOf } = await resolveYear(params.year);
      let dimensions: Dimensions;
      let geography: AggregateSummary['geography'];
      if (county) {
        const counts = await countyAggregates(db, year, county.fips);
        if (!counts)
          throw new NotFoundError(
            `No HMDA aggregates for county ${county.fips} in ${year} (the county may not exist that year or had no records).`,
          );
        dimensions = counts;
        geography = { level: 'county', code: county.fips, name: county.name };
      } else {
        const level = state ? 'state' : 'nation';
        const code = state ?? 'US';
        const counts = await aggregatesOf(db, year, level, code);
        if (!counts) throw new NotFoundError(`No HMDA aggregates for ${placeName(code) ?? code} in ${year}.`);
        dimensions = counts;
        geography = { level, code, name: state ? (placeName(state) ?? state) : 'United States' };
      }
      const actions = dimensions.actionTaken ?? {};
      const records = total(actions);
      const rates = decisionRates(actions);
      const list = (dimension: string) => ordered(dimension, dimensions[dimension] ?? {}, records);
      return {
        year,
        geography,
        records,
        approval_rate_percent: rates.approval === null ? null : round2(rates.approval),
        denial_rate_percent: rates.denial === null ? null : round2(rates.denial),
        definitions: DEFINITIONS,
        action_taken: list('actionTaken'),
        loan_type: list('loanType'),
        loan_purpose: list('loanPurpose'),
        lien_status: list('lienStatus'),
        loan_product: list('loanProduct'),
        dwelling_category: list('dwellingCategory'),
        total_units: list('totalUnits'),
        construction_method: list('constructionMethod'),
        demographics: { race: list('race'), ethnicity: list('ethnicity'), sex: list('sex'), age: list('age') },
        as_of: asOf,
        source: SOURCE,
        source_url: HMDA_MAPS_URL,
      };
    },

    async topLenders(params = {}) {
      await datasets.require(HMDA_LENDERS_DATASET);
      const years = await lenderYears(db);
      if (years.length === 0) throw missingDatasetError(HMDA_LENDERS_DATASET, { state: 'never_loaded' });
      const requested = parseYear(params.year, clock().getUTCFullYear());
      const year = requested ?? (years.at(-1) as number);
      if (!years.includes(year)) {
        throw new NotFoundError(
          `No HMDA filer list for ${year}: only the ${years.join(', ')} transmittal sheet is loaded, and lender rankings are not estimated for other years.`,
        );
      }
      const rawLimit = params.limit === undefined || params.limit === '' ? 10 : Number(params.limit);
      if (!Number.isInteger(rawLimit) || rawLimit < 1 || rawLimit > 100)
        throw new BadRequestError(`Invalid value for 'limit': give a whole number from 1 to 100.`);
      const totals = await filerTotals(db, year);
      const top = await filers(db, year, rawLimit);
      return {
        year,
        note: `Ranked by the records (applications and purchased loans) each filer reported on its ${year} HMDA transmittal sheet. Only the ${years.join(', ')} sheet is available; rankings for other years are not estimated.`,
        total_records: totals.records,
        lender_count: totals.filers,
        lenders: top.map((filer, index) => ({
          rank: index + 1,
          lei: filer.lei,
          name: filer.name,
          agency: filer.agencyName,
          state: filer.state,
          city: filer.city,
          records: filer.records,
          share_percent: totals.records > 0 ? round2((filer.records / totals.records) * 100) : 0,
        })),
        as_of: `${year}-12-31`,
        source: `FFIEC HMDA ${year} transmittal sheet (snapshot), CFPB/FFIEC`,
        source_url: transmittalSheetEntry(year).publisherUrl,
      };
    },

    async incomeLimits({ county, fiscalYear }) {
      const record = await datasets.require(HUD_INCOME_DATASET);
      const [areas, years] = await Promise.all([incomeAreas(db, county, fiscalYear), incomeYears(db)]);
      return { areas, years, source_url: HUD_INCOME_LIMITS_URL, as_of: record.asOf };
    },
    async years() {
      const { years: aggregates } = await availableYears();
      return {
        aggregates,
        lenders: await lenderYears(db),
        note: 'Aggregates cover every year listed; filer (lender) records exist only for the years under lenders.',
        source_url: DATA_BROWSER_URL,
      };
    },
  };
}
