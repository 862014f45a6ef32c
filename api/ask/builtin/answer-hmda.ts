// "What was the denial rate in Colorado in 2024?", "Who were the top lenders?": figures from the
// official HMDA aggregates (national, state or county) and the transmittal sheet, with the year,
// the definition used and the source.
import type { Composer } from './draft.ts';
import { toErrorResponse } from '../../platform/errors.ts';
import type { AggregateSummary, CodeCount } from '../../hmda-aggregates/service.ts';
import { researchLine, researchPageUrl } from './research-citation.ts';

const count = (value: number) => value.toLocaleString('en-US');
const pct = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(1)}%`);

const LOAN_TYPE_WORDS: Array<{ test: RegExp; label: RegExp; name: string }> = [
  { test: /\bFHA\b/i, label: /FHA/i, name: 'FHA' },
  { test: /\bVA\b|\bveterans?\b/, label: /^VA|Veterans/i, name: 'VA' },
  { test: /\bUSDA\b|\bRHS\b|\bFSA\b/i, label: /USDA|FSA|RHS/i, name: 'USDA (FSA/RHS)' },
  { test: /\bconventional\b/i, label: /Conventional/i, name: 'conventional' },
];

function shareOf(list: CodeCount[], label: RegExp): CodeCount | undefined {
  return list.find((entry) => label.test(entry.label));
}

function describe(summary: AggregateSummary, question: string): string {
  const where = summary.geography.level === 'nation' ? 'nationwide' : `in ${summary.geography.name}`;
  const year = summary.year;
  const originated = summary.action_taken.find((entry) => entry.code === '1');
  const lines: string[] = [];
  if (/\bdenial|denied|reject/i.test(question)) {
    lines.push(
      `The mortgage denial rate ${where} in ${year} was **${pct(summary.denial_rate_percent)}** (${summary.definitions.denial_rate}).`,
    );
  } else if (/\bapprov/i.test(question)) {
    lines.push(
      `The mortgage approval rate ${where} in ${year} was **${pct(summary.approval_rate_percent)}** (${summary.definitions.approval_rate}).`,
    );
  }
  const type = LOAN_TYPE_WORDS.find((candidate) => candidate.test.test(question));
  if (type && /\b(share|percent|percentage|how many|portion|proportion|were)\b/i.test(question)) {
    const entry = shareOf(summary.loan_type, type.label);
    if (entry)
      lines.push(
        `${type.name} loans were **${entry.share_percent.toFixed(1)}%** of HMDA records ${where} in ${year} (${count(entry.count)} of ${count(summary.records)} applications and purchased loans).`,
      );
  }
  if (/\boriginat/i.test(question) && originated) {
    lines.push(`Lenders originated **${count(originated.count)}** mortgages ${where} in ${year}.`);
  }
  if (lines.length === 0 || /\bhow many\b.*\b(applications|records|mortgages|loans)\b/i.test(question)) {
    lines.unshift(
      `Lenders reported **${count(summary.records)}** HMDA records (applications and purchased loans) ${where} in ${year}` +
        (originated ? `, of which ${count(originated.count)} were originated.` : '.'),
    );
  }
  if (lines.length === 1 && !/\bdenial|approv/i.test(question)) {
    lines.push(`Approval rate ${pct(summary.approval_rate_percent)}, denial rate ${pct(summary.denial_rate_percent)}.`);
  }
  lines.push(`Source: ${summary.source}, as of ${summary.as_of}.`);
  return lines.join('\n\n');
}

export const answerHmda: Composer = async ({ question, entities, deps }) => {
  const service = deps.services.hmdaAggregates;
  try {
    if (/\b(top|biggest|largest)\s+(\w+\s+)?lenders?\b|\blender rankings?\b|\bmarket share\b/i.test(question)) {
      const top = await service.topLenders({ ...(entities.year ? { year: entities.year } : {}), limit: 5 });
      const list = top.lenders.map(
        (lender) => `${lender.rank}. **${lender.name}** — ${count(lender.records)} records (${lender.share_percent.toFixed(1)}%)`,
      );
      return {
        text: [`The largest HMDA filers in ${top.year}, by records reported:`, list.join('\n'), top.note, `Source: ${top.source}.`].join(
          '\n\n',
        ),
        sources: [top.source_url],
      };
    }
    const summary = await service.summary({
      ...(entities.year ? { year: entities.year } : {}),
      ...(entities.state ? { state: entities.state.code } : {}),
    });
    const page = entities.state ? await researchPageUrl(deps, { state: entities.state.code }) : undefined;
    if (page && entities.state)
      return { text: `${describe(summary, question)}\n\n${researchLine(page, entities.state.name)}`, sources: [summary.source_url, page] };
    return { text: describe(summary, question), sources: [summary.source_url] };
  } catch (error) {
    return {
      text: `I can't answer that from the HMDA data: ${toErrorResponse(error).body.error}`,
      sources: [`${deps.config.baseUrl}/ai-info-page`],
    };
  }
};
