// find_series: the catalogue of measures searched by words ("VA share Hawaii", "denial rate Harris
// County", "outstanding mortgages above 6% Arizona"): the series that match, best first, each with
// its id, title, units, coverage and as-of date, and the resource that reads it. The schemas are the
// catalogue's contract (api/catalogue/contract.ts). Words naming an HMDA field and code ("denial
// reason 3") also get what the code means, from the catalogue's code book (a field's every code when
// they are asked for); words about lenders get the year's HMDA filers by records reported.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { filerLines } from '../../catalogue/filer-ranking.ts';
import {
  CatalogueSearchAnswerSchema,
  CatalogueSearchQuerySchema,
  type CatalogueSearchAnswer,
  type SeriesMatch,
} from '../../catalogue/contract.ts';

/** "2018–2025" for annual series, "1971-04-02 to 2026-10-08" for the others. */
function coverage(match: SeriesMatch): string {
  if (match.first_date === null || match.last_date === null) return '';
  if (match.frequency === 'annual') return `${match.first_date.slice(0, 4)}–${match.last_date.slice(0, 4)}`;
  return `${match.first_date} to ${match.last_date}`;
}

function matchLine(match: SeriesMatch, index: number): string {
  const when = coverage(match);
  const facts = [match.units, match.frequency, when, match.as_of ? `as of ${match.as_of}` : ''].filter(Boolean).join(', ');
  const read = match.message ?? (match.available ? `read: mds://series/${match.id}` : 'not loaded now');
  return `${index}. ${match.id}: ${match.title} (${facts}). ${read}`;
}

export function findSeriesText(answer: CatalogueSearchAnswer): string {
  const head: string[] = [];
  if (answer.places.length > 0)
    head.push(
      `Places read: ${answer.places.map((place) => `${place.name} (${place.code})${place.read_as ? ` [${place.read_as}]` : ''}`).join('; ')}.`,
    );
  if (answer.unmatched.length > 0) head.push(`No measure uses: ${answer.unmatched.map((word) => `"${word}"`).join(', ')}.`);
  if (answer.times.length > 0) head.push(`Times (${answer.times.join(', ')}) go to the series or analysis call, not the search.`);
  for (const code of answer.codes)
    head.push(`HMDA ${code.field} code ${code.code} means: ${code.meaning}${code.series ? ` (counted: ${code.series})` : ''}.`);
  if (answer.lenders) head.push(...filerLines(answer.lenders));
  if (answer.results.length === 0 && (answer.codes.length > 0 || answer.lenders))
    return [...head, ...answer.notes, '', sourcesText(answer.sources)].join('\n');
  if (answer.results.length === 0) return [...head, ...answer.notes, 'No series matches.'].join('\n');
  const shown = answer.offset + answer.results.length;
  const more = shown < answer.total ? ` More with offset: ${shown}.` : '';
  const lines = answer.results.map((match, index) => matchLine(match, answer.offset + index + 1));
  return [
    ...head,
    `${answer.total} series match, best first (${answer.offset + 1}–${shown} below).${more}`,
    ...lines,
    ...answer.notes,
    '',
    sourcesText(answer.sources),
  ].join('\n');
}

export const findSeriesTool = defineTool({
  name: 'find_series',
  title: 'Find series by words',
  description:
    'Find series by words (rates, loan/HUD income limits, HMDA counts and shares by place, loan type, race…): ids for ' +
    'analyze_data; what HMDA codes mean; top HMDA filers by year.',
  inputSchema: CatalogueSearchQuerySchema,
  outputSchema: CatalogueSearchAnswerSchema,
  uses: ['catalogue'],
  async run(args, { deps }) {
    const answer = await deps.services.catalogue.search(args);
    return { structured: answer, text: findSeriesText(answer) };
  },
});
