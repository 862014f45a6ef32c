// The MCP tools, in the order spec 4.6 lists them. Each tool lives in its own file; this list is
// the one registry the server, brand-facts.json and llms.txt read.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../tool-kit.ts';
import { registerToolDefinition } from '../tool-kit.ts';
import { getMortgageRatesTool } from './get-mortgage-rates.ts';
import { getLoanLimitsTool } from './get-loan-limits.ts';
import { lookupGlossaryTermTool } from './lookup-glossary-term.ts';
import { getStatisticsTool } from './get-statistics.ts';
import { searchContentTool } from './search-content.ts';
import { getCongressBillsTool } from './get-congress-bills.ts';
import { getEconomicCalendarTool } from './get-economic-calendar.ts';
import { queryHmdaTool } from './query-hmda.ts';

// Each entry is a ToolDefinition; typed loosely here because their input/output shapes differ.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const tools: Array<Parameters<typeof registerToolDefinition<any, any>>[1]> = [
  getMortgageRatesTool,
  getLoanLimitsTool,
  lookupGlossaryTermTool,
  getStatisticsTool,
  getEconomicCalendarTool,
  searchContentTool,
  getCongressBillsTool,
  queryHmdaTool,
];

/** Name, title, description and key requirement of every tool, for documentation files. */
export const toolCatalog = tools.map(({ name, title, description, requiresKey }) => ({ name, title, description, requiresKey: requiresKey === true }));

export function registerTools(server: McpServer, context: ToolContext): void {
  for (const tool of tools) registerToolDefinition(server, tool, context);
}
