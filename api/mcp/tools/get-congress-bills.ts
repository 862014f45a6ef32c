// get_congress_bills: the 45 tracked housing and mortgage bills — search by keyword or status, or
// one bill in full with sponsors, actions and our analysis.
import { z } from 'zod';
import { sourceSchema, sourcesText, type ToolContext } from '../tool-kit.ts';
import { BILL_STATUSES } from '../../bills/status.ts';

const billSummary = z.looseObject({
  bill_id: z.string(),
  citation: z.string(),
  title: z.string(),
  status: z.string(),
  status_label: z.string(),
  latest_action: z.object({ date: z.string(), text: z.string() }),
  url: z.string(),
  as_of: z.string(),
});

export const getCongressBillsTool = {
  name: 'get_congress_bills',
  title: 'Tracked congressional housing bills',
  description:
    '45 tracked housing and mortgage bills in Congress (status, sponsor, cosponsors, committees, latest action, ' +
    'official summary and our analysis), synced from GovInfo BILLSTATUS and congress.gov. Search by keyword and/or ' +
    'status, or pass bill_id (e.g. "hr1234-119") for one bill in full with its actions history.',
  input: {
    query: z.string().max(200).optional().describe('Keywords, e.g. "FHA", "housing supply", "down payment assistance", or a sponsor name.'),
    bill_id: z.string().max(30).optional().describe('One bill: type+number-congress, e.g. "hr1234-119" or "s2651-119".'),
    status: z.enum(BILL_STATUSES).optional().describe('Only bills with this status.'),
  },
  output: {
    bills: z.array(billSummary).describe('Matching bills (one, in full, when bill_id is given).'),
    count: z.number().int(),
    sources: z.array(sourceSchema),
  },
  async run(args: { query?: string | undefined; bill_id?: string | undefined; status?: string | undefined }, { deps }: ToolContext) {
    if (args.bill_id && !args.query && !args.status) {
      const bill = await deps.services.bills.get(args.bill_id);
      const sources = [
        { url: bill.sources.congress_gov, as_of: bill.as_of, name: 'congress.gov' },
        { url: bill.sources.govinfo_billstatus, as_of: bill.as_of, name: 'GovInfo BILLSTATUS' },
      ];
      const text = [
        `${bill.citation}: ${bill.title}`,
        `Status: ${bill.status_label}. Latest action (${bill.latest_action.date}): ${bill.latest_action.text}`,
        bill.sponsor ? `Sponsor: ${bill.sponsor.name} (${bill.sponsor.party}-${bill.sponsor.state}); ${bill.cosponsor_count} cosponsors.` : '',
        bill.summary?.text ? `Summary: ${bill.summary.text.slice(0, 800)}` : '',
        bill.analysis ? `Our analysis: ${bill.analysis.slice(0, 800)}` : '',
        sourcesText(sources),
      ].filter(Boolean).join('\n\n');
      return { structured: { bills: [bill], count: 1, sources }, text };
    }
    const result = await deps.services.bills.search({ query: args.query, bill_id: args.bill_id, status: args.status, limit: 20 });
    const sources = result.bills.map((bill) => ({ url: bill.sources.congress_gov, as_of: bill.as_of, name: bill.citation }));
    const text =
      result.bills.length === 0
        ? 'No tracked bill matches. Try a broader keyword, or no filter to list all 45.'
        : result.bills.map((bill) => `- ${bill.citation} (${bill.bill_id}): ${bill.title} — ${bill.status_label}; latest action ${bill.latest_action.date}.`).join('\n') +
          `\n\n${sourcesText(sources)}`;
    return { structured: { bills: result.bills, count: result.count, sources }, text };
  },
};
