// get_escrow_months: the escrow computation as a tool, from the escrow contract (the same input and
// answer as GET /escrow), for MCP clients and /ask's model alike.
import { defineTool } from '../tool-kit.ts';
import { EscrowAnswerSchema, EscrowQuerySchema, type EscrowAnswer } from '../../escrow/contract.ts';

export function escrowAnswerText(answer: EscrowAnswer): string {
  const byMonth = Object.entries(answer.allMonths)
    .map(([month, value]) => `${month.slice(0, 3)} ${value}`)
    .join(', ');
  return [
    `${answer.state} (${answer.stateCode}), closing in ${answer.closingMonthName}: ${answer.escrowMonths} months of property tax collected into escrow at closing` +
      `${answer.isCountySpecific ? ' (county schedule)' : ''}.` +
      (answer.escrowMonthsExact === answer.escrowMonths ? '' : ` ${answer.escrowMonthsRounding}`) +
      (answer.atClosing
        ? ` With a yearly tax bill of $${answer.atClosing.annualTax.toLocaleString('en-US')}, that is $${answer.atClosing.amount.toLocaleString('en-US', { minimumFractionDigits: 2 })} at closing ($${answer.atClosing.monthlyTax.toLocaleString('en-US', { minimumFractionDigits: 2 })} a month).`
        : ''),
    `Taxes are paid ${answer.taxSchedule.frequency}, in ${answer.taxSchedule.disbursementMonths.join(' and ')}; the first mortgage payment is due in ` +
      `${answer.firstPaymentMonth}; the RESPA cushion is ${answer.cushionMonths} months (12 CFR 1024.17).`,
    `By closing month: ${byMonth}.`,
    answer.taxSchedule.notes,
    answer.sources.map((source) => `Source: ${source.title}${source.url ? `, ${source.url}` : ''}`).join('\n'),
  ].join('\n\n');
}

export const getEscrowMonthsTool = defineTool({
  name: 'get_escrow_months',
  title: 'Escrow months at closing',
  description: 'Months of property tax escrowed at closing (RESPA, 2-month cushion) by state, county and closing month.',
  inputSchema: EscrowQuerySchema,
  outputSchema: EscrowAnswerSchema,
  uses: ['escrow'],
  async run(args, { deps }) {
    const answer = deps.services.escrow.answer(args);
    return { structured: answer, text: escrowAnswerText(answer) };
  },
});
