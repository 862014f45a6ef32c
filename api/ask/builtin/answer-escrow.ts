// "How many months of escrow at closing in Texas in March?": the RESPA aggregate analysis for the
// state (and county, when named) from the escrow service, with the month-by-month reason.
import { EscrowQuerySchema } from '../../escrow/contract.ts';
import type { Composer } from './draft.ts';
import { MONTHS } from './entities.ts';

export const answerEscrow: Composer = async ({ entities, deps }) => {
  if (!entities.state) {
    return {
      text:
        'Escrow months at closing depend on when property taxes are paid in your state (and sometimes county). ' +
        'Tell me the state and the closing month, e.g. "escrow months at closing in Texas in March".',
      sources: [`${deps.config.baseUrl}/escrow`],
    };
  }
  const closingMonth = entities.month ?? deps.clock().getUTCMonth() + 1;
  let result;
  let countyNotFound = false;
  try {
    // Read like every other face's request, so "Brooklyn" is Kings County here too.
    result = deps.services.escrow.answer(
      EscrowQuerySchema.parse({ state: entities.state.code, closing_month: closingMonth, county: entities.county }),
    );
  } catch {
    // An unknown county: answer for the state and say so.
    countyNotFound = entities.county !== undefined;
    result = deps.services.escrow.answer({ state: entities.state.code, closing_month: closingMonth });
  }
  const where = result.isCountySpecific && entities.county ? `${entities.county} County, ${result.state}` : result.state;
  const months = result.taxSchedule.disbursementMonths.join(' and ');
  const monthNote =
    entities.month === undefined ? ` (you did not name a closing month, so I used this month, ${MONTHS[closingMonth - 1]})` : '';
  const others = Object.entries(result.allMonths)
    .map(([month, value]) => `${month.slice(0, 3)} ${value}`)
    .join(', ');
  return {
    text: [
      `For a closing in **${result.closingMonthName}** in ${where}${monthNote}, the lender would typically collect **${result.escrowMonths} months** of property tax into escrow at closing.` +
        (countyNotFound
          ? ` (I could not find ${entities.county} among the counties of ${result.state}, so this uses the state schedule.)`
          : ''),
      `Why: property taxes there are paid ${result.taxSchedule.frequency} (in ${months}). Your first mortgage payment is due in ${result.firstPaymentMonth}; ` +
        `projecting 12 months of deposits against those tax payments, the account must start with enough to never drop below the ${result.cushionMonths}-month cushion RESPA allows (12 CFR 1024.17).`,
      `By closing month: ${others}.`,
      result.taxSchedule.notes,
      "Your lender's own escrow analysis, and your actual tax bill, decide the final figure. Homeowners insurance is escrowed separately.",
    ].join('\n\n'),
    sources: [
      `${deps.config.baseUrl}/api/v1/escrow?state=${result.stateCode}&closing_month=${result.closingMonth}`,
      ...result.sources.flatMap((source) => (source.url ? [source.url] : [])),
    ],
  };
};
