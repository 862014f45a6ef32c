// The research service: a profile per state (51) and per county (every county of the latest
// conforming file in the 50 states and DC), with analysis sentences, and the list of research
// pages for /articles, the feed and the sitemap. Everything is computed from one in-memory read of
// the datasets (./world.ts), replaced when a sync publishes a new load; each profile is built on
// first request and kept until then.
import type { DatasetStatus } from '../platform/datasets.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/logger.ts';
import { NotFoundError } from '../platform/errors.ts';
import { STATES, findState, type StateInfo } from '../geo/states.ts';
import { datasetSnapshot } from '../platform/dataset-snapshot.ts';
import { giveWay } from '../platform/give-way.ts';
import type { EscrowService } from '../escrow/service.ts';
import type { BillsService } from '../bills/service.ts';
import type { CountyProfile, ResearchListing, StateProfile } from './contract.ts';
import { stateFigures } from './figures.ts';
import { stateAnalysis } from './sentences.ts';
import { buildCountyProfile, latestDate, stateTitle, uniqueSources } from './profiles.ts';
// Registers the research pages as a source of the site-wide search index wherever the services are built.
import './search-documents.ts';
import { stateOfSlug, statePath } from './slugs.ts';
import { RESEARCH_DATASETS, readResearchWorld, type ResearchWorld } from './world.ts';

/** Counties listed as articles beside the 51 states: the most HMDA records in the latest year. */
export const LISTED_COUNTIES = 200;

export interface ResearchService {
  state(code: string): Promise<StateProfile>;
  county(fips: string): Promise<CountyProfile>;
  /** The profile a page address names; a 404 saying what exists when it names nothing. */
  stateBySlug(slug: string): Promise<StateProfile>;
  countyBySlug(stateSlug: string, countySlug: string): Promise<CountyProfile>;
  /** The research pages that count as articles: 51 states and the LISTED_COUNTIES largest counties. */
  listings(): Promise<ResearchListing[]>;
  /** Every research page's path (states and all counties), for the sitemap. */
  paths(): Promise<string[]>;
  /** The current world, for the search index. */
  world(): Promise<ResearchWorld>;
}

export function createResearchService({
  db,
  datasets,
  logger,
  escrow: escrowService,
  bills: billsService,
}: {
  db: Queryable;
  datasets: DatasetStatus;
  logger: Logger;
  escrow: EscrowService;
  bills: BillsService;
}): ResearchService {
  const snapshot = datasetSnapshot<ResearchWorld>({
    datasets,
    names: RESEARCH_DATASETS,
    label: 'research',
    logger,
    read: (records) => readResearchWorld(db, records, records.map((record) => `${record.name}@${record.loadedAt}`).join(';')),
  });
  // Profiles of the world they were built from: a new world starts empty.
  const built = new WeakMap<ResearchWorld, { states: Map<string, Promise<StateProfile>>; counties: Map<string, CountyProfile> }>();
  const memo = (world: ResearchWorld) => {
    let entry = built.get(world);
    if (!entry) built.set(world, (entry = { states: new Map(), counties: new Map() }));
    return entry;
  };

  async function sponsoredBills(state: StateInfo): Promise<StateProfile['bills']> {
    try {
      const bills = await billsService.list();
      return bills
        .filter((bill) => bill.sponsor?.state === state.code)
        .map((bill) => ({
          bill_id: bill.bill_id,
          citation: bill.citation,
          title: bill.short_title || bill.title,
          url: `/bills/${bill.bill_id}`,
          sponsor: bill.sponsor?.name ?? null,
          status: bill.status_label,
        }));
    } catch {
      return null; // not loaded yet: the page says so rather than claiming there are none
    }
  }

  async function buildState(world: ResearchWorld, state: StateInfo): Promise<StateProfile> {
    const figures = stateFigures(world, state);
    const escrow = escrowService.answer({ state: state.code, closing_month: 1 });
    const bills = await sponsoredBills(state);
    const escrowPart = {
      frequency: escrow.taxSchedule.frequency,
      disbursement_months: escrow.taxSchedule.disbursementMonths,
      months_at_closing: escrow.allMonths,
      notes: escrow.taxSchedule.notes,
      sources: escrow.sources,
    };
    return {
      ...figures,
      title: stateTitle(state.name, world.conformingYear),
      escrow: escrowPart,
      bills,
      analysis: stateAnalysis(figures, {
        escrow: {
          monthsAtClosing: escrow.allMonths,
          frequency: escrow.taxSchedule.frequency,
          disbursementMonths: escrow.taxSchedule.disbursementMonths,
        },
        bills: bills === null ? null : bills.length,
      }),
      sources: uniqueSources([
        ...figures.limits.sources,
        ...(figures.hmda ? [figures.hmda.source] : []),
        ...(figures.rates?.sources ?? []),
      ]),
    };
  }

  async function state(code: string): Promise<StateProfile> {
    const info = findState(code);
    if (!info)
      throw new NotFoundError(
        `No research page for state "${code.slice(0, 40)}": give one of the 50 states or DC by code or name, e.g. OH or Ohio.`,
      );
    const world = await snapshot.get();
    const states = memo(world).states;
    let profile = states.get(info.code);
    if (!profile) {
      profile = buildState(world, info);
      states.set(info.code, profile);
      profile.catch(() => states.delete(info.code));
    }
    return profile;
  }

  async function county(fips: string): Promise<CountyProfile> {
    const world = await snapshot.get();
    const counties = memo(world).counties;
    let profile = counties.get(fips);
    if (!profile) counties.set(fips, (profile = buildCountyProfile(world, fips)));
    return profile;
  }

  return {
    state,
    county,
    async stateBySlug(slug) {
      const info = stateOfSlug(slug);
      if (!info)
        throw new NotFoundError(
          `There is no research page for "${slug.slice(0, 60)}". Each state and DC has one at /research/<state name>, e.g. /research/ohio or /research/new-york.`,
        );
      return state(info.code);
    },
    async countyBySlug(stateSlugText, countySlug) {
      const info = stateOfSlug(stateSlugText);
      if (!info)
        throw new NotFoundError(
          `There is no research page for "${stateSlugText.slice(0, 60)}". Each state and DC has one at /research/<state name>, e.g. /research/arizona.`,
        );
      const world = await snapshot.get();
      const found = (world.countiesByState.get(info.code) ?? []).find((candidate) => candidate.slug === countySlug.toLowerCase());
      if (!found) {
        throw new NotFoundError(
          `${info.name} has no county page "${countySlug.slice(0, 60)}". Its counties are listed on ${statePath(info)}, e.g. ${(world.countiesByState.get(info.code) ?? [])[0]?.path ?? statePath(info)}.`,
        );
      }
      return county(found.fips);
    },
    async listings() {
      const world = await snapshot.get();
      const listings: ResearchListing[] = [];
      // States by name (the codes' order puts Alaska before Alabama).
      for (const info of [...STATES].sort((a, b) => a.name.localeCompare(b.name))) {
        const hmda = world.stateHmda.get(info.code);
        listings.push({
          kind: 'state',
          place: info.name,
          stateName: info.name,
          title: stateTitle(info.name, world.conformingYear),
          path: statePath(info),
          description: `${info.name}'s county loan limits and their history since ${world.firstLimitYear}, its HMDA lending against the nation${hmda ? ` (${hmda.records.toLocaleString('en-US')} records in ${world.hmdaYear})` : ''}, the rate its borrowers pay beside Freddie Mac's survey, and its escrow schedule.`,
          date: latestDate([
            world.sources.conforming(world.conformingYear),
            world.sources.hmda(world.hmdaYear),
            world.sources.nmdb,
            world.sources.pmms,
          ]),
        });
      }
      const largest = [...world.countyByFips.values()]
        .filter((entry) => entry.hmda)
        .sort((a, b) => (b.hmda?.records ?? 0) - (a.hmda?.records ?? 0) || a.fips.localeCompare(b.fips))
        .slice(0, LISTED_COUNTIES);
      for (const entry of largest) {
        await giveWay(); // the first listing of a world builds each profile
        const profile = await county(entry.fips);
        listings.push({
          kind: 'county',
          place: profile.county,
          stateName: profile.state_name,
          title: profile.title,
          path: profile.path,
          description: profile.analysis[0] ?? '',
          date: latestDate(profile.sources),
        });
      }
      return listings;
    },
    async paths() {
      const world = await snapshot.get();
      return [...STATES.map((info) => statePath(info)), ...[...world.countyByFips.values()].map((entry) => entry.path)];
    },
    world: () => snapshot.get(),
  };
}
