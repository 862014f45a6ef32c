// get_congress_bills: the 45 tracked housing and mortgage bills — search by keyword or status, or
// one bill in full with sponsors, actions and our analysis. The schemas are the bills contract's,
// shared with GET /bills.
import { defineTool } from '../tool-kit.ts';
import { billsAnswerText } from '../answer-text.ts';
import { BillsAnswerSchema, BillsQuerySchema } from '../../bills/contract.ts';

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
