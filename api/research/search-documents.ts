// The research pages as documents of the site-wide full-text index (type `research`), so search,
// search_content and /ask find "loan limits Maricopa" or "mortgage data Ohio" on the county's or
// state's own page. Registered as a search source at import; a rebuild before the research datasets
// are loaded indexes none (the next rebuild, at start-up or sync, adds them).
import type { Queryable } from '../platform/db/database.ts';
import { readDatasetRecords } from '../platform/datasets.ts';
import { STATES } from '../geo/states.ts';
import type { SearchDocumentInput } from '../search/documents.ts';
import { registerSearchSource } from '../search/sources.ts';
import { giveWay } from '../platform/give-way.ts';
import { stateFigures } from './figures.ts';
import { stateAnalysis } from './sentences.ts';
import { buildCountyProfile, stateTitle } from './profiles.ts';
import { RESEARCH_DATASETS, readResearchWorld, type ResearchWorld } from './world.ts';

export const RESEARCH_SEARCH_SOURCE = 'research';

const newest = (dates: readonly (string | null)[]) =>
  dates
    .filter((date): date is string => date !== null)
    .sort()
    .at(-1) ?? null;

/** Every research page as a document: a profile of each state and county, giving way between them (thousands). */
export async function researchDocuments(world: ResearchWorld): Promise<SearchDocumentInput[]> {
  const documents: SearchDocumentInput[] = [];
  for (const state of STATES) {
    await giveWay();
    const figures = stateFigures(world, state);
    // Escrow and bills come from other services; the index needs the words the data gives.
    const sentences = stateAnalysis(figures, { escrow: { monthsAtClosing: {}, frequency: '', disbursementMonths: [] }, bills: null });
    documents.push({
      id: `research:state:${state.code}`,
      type: 'research',
      title: stateTitle(state.name, world.conformingYear),
      path: figures.path,
      aliases: [`${state.name} mortgage data`, `${state.name} loan limits`, `${state.name} mortgage rates`, `${state.name} HMDA lending`],
      summary: sentences.slice(0, 2).join(' '),
      headings: ['What the data shows', 'Rates borrowers pay', 'Lending (HMDA)', 'Loan limits by county', 'Escrow at closing'],
      body: [...sentences, `Counties: ${figures.counties.map((county) => county.county).join(', ')}.`].join('\n\n'),
      publishedOn: newest([
        world.sources.conforming(world.conformingYear).as_of,
        world.sources.hmda(world.hmdaYear).as_of,
        world.sources.nmdb.as_of,
      ]),
    });
  }
  for (const fips of world.countyByFips.keys()) {
    await giveWay();
    const profile = buildCountyProfile(world, fips);
    const short = profile.county.replace(/ (County|Parish|Borough|Census Area|Municipality|city|City and Borough)$/, '');
    documents.push({
      id: `research:county:${fips}`,
      type: 'research',
      title: profile.title,
      path: profile.path,
      aliases: [`${short} loan limits`, `${profile.county} ${profile.state_name}`, `${short} mortgage data`, fips],
      summary: profile.analysis.slice(0, 2).join(' '),
      headings: ['What the data shows', 'Limits since 2018', 'Limits by number of units', 'Lending (HMDA)'],
      body: profile.analysis.join('\n\n'),
      publishedOn: newest(profile.sources.map((source) => source.as_of)),
    });
  }
  return documents;
}

async function documents(db: Queryable): Promise<SearchDocumentInput[]> {
  const records = await readDatasetRecords(db);
  const loaded = RESEARCH_DATASETS.map((name) => records.find((record) => record.name === name));
  if (loaded.some((record) => record === undefined)) return [];
  return researchDocuments(await readResearchWorld(db, records, 'search-index'));
}

registerSearchSource({ source: RESEARCH_SEARCH_SOURCE, documents });
