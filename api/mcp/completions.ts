// Argument completion (MCP `completion/complete`) for the prompts and resource templates: states,
// counties of a state, county FIPS codes, glossary terms and tracked bill ids. Each function
// returns every value that matches what was typed so far (a prefix, in any case); the SDK sends
// the first 100 with the total, as the protocol asks.
//
// Counties are read through the loan-limits capability's own reader of the `counties` dataset,
// once per state and per load of that dataset: an MCP server is built per request, so the
// directory lives beside the dependencies, not in the server.
import type { CoreDeps } from '../platform/core-deps.ts';
import type { UsesServices } from '../domain-services.ts';
import { STATES, TERRITORIES, findState, findTerritory } from '../geo/states.ts';
import type { CountyRecord } from '../loan-limits/resolve.ts';

/** Lower-case, trimmed, inner spaces single: how typed text and names are compared. */
const folded = (value: string): string => value.trim().replace(/\s+/g, ' ').toLowerCase();

export interface StateOptions {
  /** Also the territories (PR, GU, VI, AS, MP) where the capability covers them (loan limits). */
  territories?: boolean;
}

const TERRITORY_FIPS: Readonly<Record<keyof typeof TERRITORIES, string>> = { AS: '60', GU: '66', MP: '69', PR: '72', VI: '78' };

interface Place {
  code: string;
  name: string;
  fips: string;
}

function places({ territories = false }: StateOptions): Place[] {
  const states: Place[] = STATES.map(({ code, name, fips }) => ({ code, name, fips }));
  if (!territories) return states;
  const others = Object.entries(TERRITORIES).map(([code, name]) => ({
    code,
    name,
    fips: TERRITORY_FIPS[code as keyof typeof TERRITORIES],
  }));
  return [...states, ...others].sort((a, b) => a.code.localeCompare(b.code));
}

/** State codes whose code or name starts with `typed` ("t" → TN, TX; "new" → NH, NJ, NM, NY). */
export function completeState(typed: string, options: StateOptions = {}): string[] {
  const prefix = folded(typed);
  return places(options)
    .filter((place) => place.code.toLowerCase().startsWith(prefix) || place.name.toLowerCase().startsWith(prefix))
    .map((place) => place.code);
}

/** The state (or territory) code a typed state argument names, if it names one. */
export function stateCodeOf(typed: string | undefined): string | undefined {
  if (typed === undefined || typed.trim() === '') return undefined;
  return findState(typed)?.code ?? findTerritory(typed);
}

/** A county name as people start typing it: without "County", "Parish", "Borough" and the like. */
const SUFFIX = / (county|parish|borough|census area|city and borough|municipality|municipio|planning region)$/;

export interface CountyDirectory {
  /** County names of `state` starting with `typed` (any case, with or without "County"); FIPS codes when `typed` is digits. */
  counties(state: string, typed: string): Promise<string[]>;
  /** 5-digit county FIPS codes starting with `typed` (digits), in every state. */
  fipsCodes(typed: string): Promise<string[]>;
  /** The county with this FIPS code, when the counties dataset holds it. */
  county(fips: string): Promise<CountyRecord | undefined>;
}

function createCountyDirectory(deps: UsesServices<'datasets' | 'loanLimits'>): CountyDirectory {
  let version: string | undefined;
  let byState = new Map<string, Promise<CountyRecord[]>>();

  /** The counties of one state, read again only after a new load of the counties dataset. */
  async function countiesOfState(state: string): Promise<CountyRecord[]> {
    const record = (await deps.services.datasets.list()).find((entry) => entry.name === 'counties');
    if (!record) return []; // not loaded yet: nothing to suggest, and completion is never an error
    const current = `${record.loadedAt}|${record.checksum ?? ''}`;
    if (current !== version) {
      version = current;
      byState = new Map();
    }
    let counties = byState.get(state);
    if (!counties) {
      counties = deps.services.loanLimits.counties(state).then((list) => [...list]);
      byState.set(state, counties);
      // A failed read is not remembered: the next completion tries again.
      counties.catch(() => byState.delete(state));
    }
    return counties;
  }

  /** States whose FIPS codes could start with `digits` (all of them for ""). */
  const statesForFips = (digits: string): Place[] =>
    places({ territories: true }).filter((place) => place.fips.startsWith(digits.slice(0, 2)) || digits.length === 0);

  async function fipsCodes(typed: string): Promise<string[]> {
    const digits = typed.trim();
    if (!/^\d{0,5}$/.test(digits)) return [];
    const lists = await Promise.all(statesForFips(digits).map((place) => countiesOfState(place.code)));
    return lists
      .flat()
      .map((county) => county.fips)
      .filter((fips) => fips.startsWith(digits))
      .sort();
  }

  return {
    fipsCodes,
    async counties(state, typed) {
      const trimmed = typed.trim();
      const all = await countiesOfState(state);
      if (/^\d+$/.test(trimmed))
        return all
          .map((county) => county.fips)
          .filter((fips) => fips.startsWith(trimmed))
          .sort();
      const prefix = folded(trimmed);
      return all
        .filter((county) => {
          const name = folded(county.name);
          return name.startsWith(prefix) || name.replace(SUFFIX, '').startsWith(prefix);
        })
        .map((county) => county.name);
    },
    async county(fips) {
      if (!/^\d{5}$/.test(fips)) return undefined;
      const state = places({ territories: true }).find((place) => place.fips === fips.slice(0, 2));
      if (!state) return undefined;
      return (await countiesOfState(state.code)).find((county) => county.fips === fips);
    },
  };
}

const directories = new WeakMap<object, CountyDirectory>();

/** The county directory of these dependencies, shared by every MCP server built over them. */
export function countyDirectory(deps: UsesServices<'datasets' | 'loanLimits'>): CountyDirectory {
  let directory = directories.get(deps.services);
  if (!directory) {
    directory = createCountyDirectory(deps);
    directories.set(deps.services, directory);
  }
  return directory;
}

/** Canonical glossary terms whose term, abbreviation or alias starts with `typed` ("dti" → "Debt-to-income ratio (DTI)"). */
export function completeGlossaryTerm(deps: UsesServices<'glossary'>, typed: string): string[] {
  const prefix = folded(typed);
  return deps.services.glossary
    .all()
    .filter((entry) => [entry.term, entry.slug, ...entry.aliases].some((name) => folded(name).startsWith(prefix)))
    .map((entry) => entry.term)
    .sort((a, b) => a.localeCompare(b));
}

/** Glossary slugs whose slug, term or alias starts with `typed` ("Escrow" → escrow, escrow-account, escrow-cushion…). */
export function completeGlossarySlug(deps: UsesServices<'glossary'>, typed: string): string[] {
  const prefix = folded(typed);
  const slugPrefix = prefix.replace(/[\s_]+/g, '-');
  return deps.services.glossary
    .all()
    .filter((entry) => entry.slug.startsWith(slugPrefix) || [entry.term, ...entry.aliases].some((name) => folded(name).startsWith(prefix)))
    .map((entry) => entry.slug)
    .sort();
}

/** Tracked bill ids starting with `typed`, in any case, spaces and dots ignored ("H.R. 15" → hr1532-117, …). */
export async function completeBillId(deps: Pick<CoreDeps, 'logger'> & UsesServices<'bills'>, typed: string): Promise<string[]> {
  const prefix = typed.toLowerCase().replace(/[\s.]+/g, '');
  let bills: { bill_id: string }[];
  try {
    bills = await deps.services.bills.list();
  } catch (error) {
    // Before the first bills sync there is nothing to suggest; completion itself is never an error.
    if ((error as { status?: unknown }).status !== 503) deps.logger.warn({ err: error }, 'mcp: bill id completion failed');
    return [];
  }
  return bills
    .map((bill) => bill.bill_id)
    .filter((id) => id.startsWith(prefix))
    .sort();
}

/**
 * A completion callback that never fails the request: a fault (the database away) is logged and
 * suggests nothing, as a client typing into a field expects.
 */
export function completing<Typed>(
  deps: Pick<CoreDeps, 'logger'>,
  complete: (typed: string, context: { arguments?: Record<string, string> } | undefined) => string[] | Promise<string[]>,
): (typed: Typed, context?: { arguments?: Record<string, string> }) => Promise<string[]> {
  return async (typed, context) => {
    try {
      return await complete(typeof typed === 'string' ? typed : '', context);
    } catch (error) {
      deps.logger.warn({ err: error }, 'mcp: completion failed');
      return [];
    }
  };
}
