// The latest weekly survey rate for a loan term, for the payment calculator's default rate: Freddie
// Mac's PMMS publishes 30- and 15-year fixed rates; other terms have no survey figure.
import type { UsesServices } from '../../api/domain-services.ts';

type SurveyRateDeps = UsesServices<'series'>;

export interface SurveyRate {
  value: number;
  date: string;
  label: string;
  source_url: string;
}

const SURVEY_BY_TERM: Record<string, { id: string; label: string }> = {
  '30': { id: 'pmms/30-year', label: 'Freddie Mac PMMS 30-year fixed' },
  '15': { id: 'pmms/15-year', label: 'Freddie Mac PMMS 15-year fixed' },
};

/** The survey's latest reading for `term` years, or undefined when no survey covers it or none is loaded. */
export async function latestSurveyRate(deps: SurveyRateDeps, term: string): Promise<SurveyRate | undefined> {
  const survey = SURVEY_BY_TERM[term];
  if (!survey) return undefined;
  try {
    const info = await deps.services.series.info(survey.id);
    if (info.last_date === null) return undefined;
    const answer = await deps.services.series.answer(survey.id, { from: info.last_date });
    const last = answer.observations.filter((observation) => observation.value !== null).at(-1);
    return last && last.value !== null
      ? { value: last.value, date: last.date, label: survey.label, source_url: info.source_url }
      : undefined;
  } catch (error) {
    if ((error as { status?: number }).status !== undefined) return undefined;
    throw error;
  }
}
