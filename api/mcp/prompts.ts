// MCP prompts: ready-made requests a client can offer its user, each steering the model to the
// right tools and to citing their sources.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const userMessage = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'compare_rates_for_my_state',
    {
      title: 'Compare rates for my state',
      description: "Today's rate for a state and credit tier beside the national survey and the market benchmark.",
      argsSchema: {
        state: z.string().describe('2-letter state code, e.g. TX.'),
        credit_score: z.string().optional().describe('Approximate credit score, e.g. 740.'),
        down_payment_percent: z.string().optional().describe('Down payment as a percent, e.g. 10.'),
      },
    },
    ({ state, credit_score, down_payment_percent }) =>
      userMessage(
        `Using get_mortgage_rates, compare today's 30-year fixed rate in ${state}` +
          `${credit_score ? ` for a credit score around ${credit_score}` : ''}` +
          `${down_payment_percent ? ` with ${down_payment_percent}% down` : ''} with the national weekly survey and the market benchmark. ` +
          'Quote each figure with its as-of date and source, and say plainly where a figure is a national benchmark rather than a state observation.',
      ),
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
        state: z.string().describe('2-letter state code.'),
        county: z.string().describe('County name or 5-digit FIPS code.'),
      },
    },
    ({ state, county }) =>
      userMessage(
        `Using get_loan_limits with loan_type "all", give this year's 1-unit conforming, FHA and VA loan limits for ${county}, ${state}, ` +
          'say whether it is a high-cost area, and cite the sources with their as-of dates.',
      ),
  );
}
