// MCP prompts: ready-made requests a client can offer its user, each steering the model to the
// right tools and to citing their sources. Arguments that name a state, a county, a glossary term
// or a bill complete as the user types (`completion/complete`, ./completions.ts) and are read with
// the contract vocabulary (a state by code or name in any case, a county with or without "County").
import { z } from 'zod';
import { completable, type McpServer } from '@modelcontextprotocol/server';
import type { CoreDeps } from '../platform/core-deps.ts';
import type { UsesServices } from '../domain-services.ts';
import { countyName, stateCode, stateOrTerritoryCode } from '../platform/contract/places.ts';
import { text } from '../platform/contract/lenient.ts';
import { GLOSSARY_TERM_MAX } from '../glossary/contract.ts';
import { completeBillId, completeGlossaryTerm, completeState, completing, countyDirectory, stateCodeOf } from './completions.ts';

/** What the prompts' completions read: the logger for faults and the services they suggest from. */
type PromptDeps = Pick<CoreDeps, 'logger'> & UsesServices<'bills' | 'datasets' | 'glossary' | 'loanLimits'>;

const userMessage = (message: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: message } }] });

export function registerPrompts(server: McpServer, deps: PromptDeps): void {
  const counties = countyDirectory(deps);

  server.registerPrompt(
    'compare_rates_for_my_state',
    {
      title: 'Compare rates for my state',
      description: "Today's rate for a state and credit tier beside the national survey and the market benchmark.",
      argsSchema: {
        state: completable(
          stateCode().describe('The state, by 2-letter code or name in any case, e.g. "TX" or "Texas".'),
          completing(deps, (typed) => completeState(typed)),
        ),
        fico: z.string().optional().describe("The credit score (e.g. 745) or FICO tier 1-5: get_mortgage_rates' `fico`."),
        down_payment: z
          .string()
          .optional()
          .describe("Down payment as a percent of the price, e.g. 10: get_mortgage_rates' `down_payment`."),
      },
    },
    ({ state, fico, down_payment }) => {
      // The arguments the tool takes, by their names, so the model calls it as written.
      const args = [
        `state: "${state}"`,
        ...(fico ? [`fico: ${JSON.stringify(fico.trim())}`] : []),
        ...(down_payment ? [`down_payment: ${JSON.stringify(down_payment.trim())}`] : []),
      ];
      return userMessage(
        `Call get_mortgage_rates with {${args.join(', ')}} and compare today's 30-year fixed rate in ${state} with the national weekly survey and the market benchmark. ` +
          'Quote each figure with its as-of date and source; say whether the rate is a lender sheet, a state estimate (with its method and HMDA year) or a national figure (rate_kind), ' +
          'whether it is specific to the credit tier (tier_specific), and which figures are not current (stale).',
      );
    },
  );

  server.registerPrompt(
    'explain_my_loan_estimate',
    {
      title: 'Explain my Loan Estimate',
      description: 'Walk through the sections and terms of a Loan Estimate, using the glossary.',
      argsSchema: { section: z.string().optional().describe('A section or line to focus on, e.g. "Origination Charges" or "Escrow".') },
    },
    ({ section }) =>
      userMessage(
        `Explain ${section ? `the "${section}" part of` : 'the sections of'} a mortgage Loan Estimate in plain language. ` +
          'Look up each term you use with lookup_glossary_term and cite the glossary pages. Do not ask for or use any personal data.',
      ),
  );

  server.registerPrompt(
    'loan_limits_for_my_county',
    {
      title: 'Loan limits for my county',
      description: 'Conforming, FHA and VA limits for a county, with what they mean.',
      argsSchema: {
        state: completable(
          stateOrTerritoryCode().describe('The state or territory, by 2-letter code or name in any case, e.g. "CA" or "California".'),
          completing(deps, (typed) => completeState(typed, { territories: true })),
        ),
        county: completable(
          countyName().describe(
            'The county, by name with or without "County" (e.g. "Los Angeles", "Brooklyn") or 5-digit FIPS code (e.g. "06037"); ' +
              'completes among the counties of the state given.',
          ),
          completing(deps, async (typed, context) => {
            const state = stateCodeOf(context?.arguments?.state);
            if (state) return counties.counties(state, typed);
            // Without a state only a FIPS code names one county.
            return /^\d+$/.test(typed.trim()) ? counties.fipsCodes(typed) : [];
          }),
        ),
      },
    },
    ({ state, county }) =>
      userMessage(
        `Using get_loan_limits with loan_type "all", give this year's 1-unit conforming, FHA and VA loan limits for ${county}, ${state}, ` +
          'say whether it is a high-cost area, and cite the sources with their as-of dates.',
      ),
  );

  server.registerPrompt(
    'explain_a_term',
    {
      title: 'Explain a mortgage term',
      description: 'A plain-language explanation of one glossary term, with its FAQs and official sources.',
      argsSchema: {
        term: completable(
          text({ max: GLOSSARY_TERM_MAX, example: 'APR' }).describe(
            'The term or its abbreviation, e.g. "APR", "DTI" or "escrow cushion" (completes from the glossary).',
          ),
          completing(deps, (typed) => completeGlossaryTerm(deps, typed)),
        ),
      },
    },
    ({ term }) =>
      userMessage(
        `Using lookup_glossary_term, explain "${term}" in plain language for a home buyer, with an example, ` +
          'answer the questions people ask about it, and cite the glossary page and the official sources it links.',
      ),
  );

  server.registerPrompt(
    'follow_a_bill',
    {
      title: 'Follow a housing bill',
      description: 'Where one tracked bill in Congress stands and what it would change for borrowers.',
      argsSchema: {
        bill_id: completable(
          text({ max: 30, example: 'hr1532-117' }).describe(
            'The bill: type, number and congress, e.g. "hr1532-117" (completes among the tracked bills).',
          ),
          completing(deps, (typed) => completeBillId(deps, typed)),
        ),
      },
    },
    ({ bill_id }) =>
      userMessage(
        `Using get_congress_bills with bill_id "${bill_id}", say where the bill stands (status and latest action with its date), ` +
          'who sponsors it, and what it would change for mortgage borrowers, citing congress.gov.',
      ),
  );
}
