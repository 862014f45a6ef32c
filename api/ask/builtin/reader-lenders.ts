// "Which institution reported the most HMDA records in 2020?": the ranking of filers by records
// from the HMDA transmittal sheet (the hmda-aggregates service), for the year asked. A year whose
// filer list is not loaded is said first, with the years that are; no other year is substituted.
import { HttpError, toErrorResponse } from '../../platform/errors.ts';
import type { AnswerDraft, BuiltinDeps } from './draft.ts';
import type { Frame } from './reader/frame.ts';

const INSTITUTION_WORDS = ['institution', 'lender', 'bank', 'filer', 'company', 'originator'];

/** Whether the frame ranks institutions: a word for them, a superlative or "top", and no lender named. */
export function ranksInstitutions(frame: Frame, roots: readonly string[]): boolean {
  const named = roots.some((root) => INSTITUTION_WORDS.includes(root));
  const ranking =
    frame.operation.kind === 'rank' ||
    frame.operation.kind === 'extremes' ||
    frame.operation.direction !== undefined ||
    frame.numbers.topN !== undefined;
  return named && ranking && !frame.qualifiers.lender && frame.topic === 'hmda';
}

export async function answerInstitutions(frame: Frame, deps: BuiltinDeps): Promise<AnswerDraft> {
  const year = frame.times.find((time) => time.grain === 'year')?.from.slice(0, 4);
  const limit = Math.min(frame.numbers.topN ?? 5, 100);
  try {
    const top = await deps.services.hmdaAggregates.topLenders({ ...(year ? { year } : {}), limit });
    const lines = top.lenders.map(
      (lender) => `${lender.rank}. ${lender.name}: ${lender.records.toLocaleString('en-US')} records (${lender.share_percent}%)`,
    );
    const first = top.lenders[0];
    const head = first
      ? `In ${top.year}, **${first.name}** reported the most HMDA records: **${first.records.toLocaleString('en-US')}** (${first.share_percent}% of ${top.total_records.toLocaleString('en-US')} records from ${top.lender_count.toLocaleString('en-US')} filers).`
      : `No filer is listed for ${top.year}.`;
    return {
      text: [head, lines.join('\n'), top.note, `Source: ${top.source} (${top.source_url}), as of ${top.as_of}.`].join('\n\n'),
      sources: [top.source_url],
    };
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    return {
      text: `I can't rank institutions for ${year ?? 'that year'}: ${toErrorResponse(error).body.error}`,
      sources: [`${deps.config.baseUrl}/ai-info-page`],
    };
  }
}
