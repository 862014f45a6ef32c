// The research page of a state or county, cited beside a loan-limits or HMDA answer about it: the
// page compares the place with its state or the nation. Nothing when the research data is not
// loaded (the page would not answer) or the place has no page (territories).
import type { Config } from '../../config.ts';
import type { UsesServices } from '../../domain-services.ts';

/** What a research citation reads: the base URL and the research profiles. */
type ResearchCitationDeps = { config: Pick<Config, 'baseUrl'> } & UsesServices<'research'>;

export async function researchPageUrl(deps: ResearchCitationDeps, place: { state?: string; fips?: string }): Promise<string | undefined> {
  try {
    const profile = place.fips
      ? await deps.services.research.county(place.fips)
      : place.state
        ? await deps.services.research.state(place.state)
        : undefined;
    return profile ? `${deps.config.baseUrl}${profile.path}` : undefined;
  } catch {
    return undefined;
  }
}

/** The sentence pointing at the page, for the answer's text. */
export const researchLine = (url: string, name: string): string =>
  `Research page for ${name}, with its history since 2018 and comparisons: ${url}`;
