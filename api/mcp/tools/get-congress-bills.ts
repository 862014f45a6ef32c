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
      first.sponsor ? `Sponsor: ${first.sponsor.name} (${first.sponsor.party}-${first.sponsor.state}); ${first.cosponsor_count} cosponsors.` : '',
      first.summary?.text ? `Summary: ${first.summary.text.slice(0, 800)}` : '',
      first.analysis ? `Our analysis: ${first.analysis.slice(0, 800)}` : '',
      sourcesText(answer.sources),
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  if (answer.bills.length === 0) return 'No tracked bill matches. Try a broader keyword, or no filter to list all 45.';
  const lines = answer.bills.map(
    (bill) => `- ${bill.citation} (${bill.bill_id}): ${bill.title} — ${bill.status_label}; latest action ${bill.latest_action.date}.`,
  );
  return `${lines.join('\n')}\n\n${sourcesText(answer.sources)}`;
}

export const getCongressBillsTool = defineTool({
  name: 'get_congress_bills',
  title: 'Tracked congressional housing bills',
  description:
    '45 tracked housing and mortgage bills in Congress (status, sponsor, cosponsors, committees, latest action, ' +
    'official summary and our analysis), synced from GovInfo BILLSTATUS and congress.gov. Search by `query` (keywords, ' +
    'a bill number or a sponsor, e.g. "FHA", "housing supply") and/or `status` (e.g. "in committee", "became_law"), or pass ' +
    '`bill_id` alone (e.g. "hr1532-117" or "s2651-119") for one bill in full with its actions history.',
  inputSchema: BillsQuerySchema,
  outputSchema: BillsAnswerSchema,
  async run(args, { deps }) {
    const answer = await deps.services.bills.answer(args);
    return { structured: answer, text: billsAnswerText(answer) };
  },
});
