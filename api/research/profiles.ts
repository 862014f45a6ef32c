// A county's profile and the titles of research pages, from the research world alone: the service
// and the search index share them.
import { NotFoundError } from '../platform/errors.ts';
import type { CountyProfile, ResearchSource } from './contract.ts';
import { countyFigures } from './figures.ts';
import { countyAnalysis } from './sentences.ts';
import type { ResearchWorld } from './world.ts';

export const latestDate = (sources: readonly ResearchSource[]) =>
  sources
    .map((source) => source.as_of ?? '')
    .sort()
    .at(-1) ?? '';

export function uniqueSources(sources: readonly ResearchSource[]): ResearchSource[] {
  const seen = new Set<string>();
  return sources.filter((source) => {
    const key = `${source.name}|${source.url}|${source.as_of}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export const stateTitle = (name: string, year: number) => `${name} mortgage data: loan limits, lending and rates (${year})`;
export const countyTitle = (county: string, state: string, year: number) =>
  `${county}, ${state}: loan limits and mortgage lending (${year})`;

/** The county profile (sentences included) from the world alone: the service and the search index share it. */
export function buildCountyProfile(world: ResearchWorld, fips: string): CountyProfile {
  const county = world.countyByFips.get(fips);
  if (!county)
    throw new NotFoundError(
      `No research page for county ${fips}: give the 5-digit FIPS code of a county in the 50 states or DC that FHFA's ${world.conformingYear} conforming file lists, e.g. 04013 (Maricopa County, AZ).`,
    );
  const figures = countyFigures(world, county);
  return {
    ...figures,
    title: countyTitle(county.name, county.state.code, world.conformingYear),
    analysis: countyAnalysis(figures),
    sources: uniqueSources([
      figures.limits.conforming.source,
      ...(figures.limits.fha ? [figures.limits.fha.source] : []),
      ...(figures.hmda ? [figures.hmda.source] : []),
    ]),
  };
}
