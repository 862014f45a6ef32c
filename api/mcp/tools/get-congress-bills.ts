// get_congress_bills: the 45 tracked housing and mortgage bills — search by keyword or status, or
// one bill in full with sponsors, actions and our analysis. The schemas are the bills contract's,
// shared with GET /bills.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { BillsAnswerSchema, BillsQuerySchema, type BillsAnswer } from '../../bills/contract.ts';

export function billsAnswerText(answer: BillsAnswer): string {
  const [first] = answer.bills;
  if (first && 'analysis' in first) {
    return [
      `${first.citation}: ${first.title}`,
      `Status: ${first.status_label}. Latest action (${first.latest_action.date}): ${first.latest_action.text}`,
      first.sponsor
        ? `Sponsor: ${first.sponsor.name} (${first.sponsor.party}-${first.sponsor.state}); ${first.cosponsor_count} cosponsors.`
        : '',
      first.summary?.text ? `Summary: ${first.summary.text.slice(0, 800)}` : '',
      first.analysis ? `Our analysis: ${first.analysis.slice(0, 800)}` : '',
      sourcesText(answer.sources),
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  if (answer.bills.length === 0) return 'No tracked bill matches. Try a broader keyword, or no filter to list them all.';
  const lines = answer.bills.map(
    (bill) => `- ${bill.citation} (${bill.bill_id}): ${bill.title} — ${bill.status_label}; latest action ${bill.latest_action.date}.`,
  );
  const atLimit = answer.bills.length === answer.filters.limit ? ` (the limit: raise \`limit\` for more)` : '';
  const summary = `${answer.bills.length} tracked bill${answer.bills.length === 1 ? '' : 's'}${atLimit}; \`bill_id\` gives one in full:`;
  return `${summary}\n${lines.join('\n')}\n\n${sourcesText(answer.sources)}`;
}

export const getCongressBillsTool = defineTool({
  name: 'get_congress_bills',
  title: 'Bills in Congress',
  description: 'Tracked housing bills in Congress: search by `query`/`status`, or one in full by `bill_id`.',
  inputSchema: BillsQuerySchema.extend({
    keyword: BillsQuerySchema.shape.query.describe('Same as `query`.'),
  }),
  outputSchema: BillsAnswerSchema,
  uses: ['bills'],
  async run({ keyword, ...args }, { deps }) {
    const query = [args.query, keyword].filter((words, index, all) => words !== undefined && all.indexOf(words) === index).join(' ');
    const answer = await deps.services.bills.answer(query === '' ? args : { ...args, query });
    return { structured: answer, text: billsAnswerText(answer) };
  },
});
