// The tools, in the order docs/mcp.md lists them. Each tool lives in its own file; this list is the
// one registry the MCP server, /ask's model, brand-facts.json and llms.txt read, so a chat with a
// configured model reaches what an MCP client reaches; each is declared from its capability's
// contract (`defineTool`).
import type { McpServer } from '@modelcontextprotocol/server';
import type { ContractTool, ToolContext } from '../tool-kit.ts';
import { getMortgageRatesTool } from './get-mortgage-rates.ts';
import { getLoanLimitsTool } from './get-loan-limits.ts';
import { lookupGlossaryTermTool } from './lookup-glossary-term.ts';
import { getStatisticsTool } from './get-statistics.ts';
import { searchContentTool } from './search-content.ts';
import { getCongressBillsTool } from './get-congress-bills.ts';
import { getEconomicCalendarTool } from './get-economic-calendar.ts';
import { queryHmdaTool } from './query-hmda.ts';
import { findSeriesTool } from './find-series.ts';
import { analyzeDataTool } from './analyze-data.ts';
import { getEscrowMonthsTool } from './get-escrow-months.ts';

export type McpTool = ContractTool;

export const tools: McpTool[] = [
  getMortgageRatesTool,
  getLoanLimitsTool,
  lookupGlossaryTermTool,
  getStatisticsTool,
  getEconomicCalendarTool,
  searchContentTool,
  getCongressBillsTool,
  queryHmdaTool,
  findSeriesTool,
  analyzeDataTool,
  getEscrowMonthsTool,
];

/** Name, title, description and key requirement of every tool, for documentation files. */
export const toolCatalog = tools.map(({ name, title, description, requiresKey }) => ({
  name,
  title,
  description,
  requiresKey: requiresKey === true,
}));

export function registerTools(server: McpServer, context: ToolContext): void {
  for (const tool of tools) tool.register(server, context);
}
