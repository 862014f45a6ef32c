// The MCP tools, in the order spec 4.6 lists them. Each tool lives in its own file; this list is
// the one registry the server, /ask, brand-facts.json and llms.txt read. Tools declared from a
// contract (`defineTool`) and earlier ones (`registerToolDefinition`) live side by side until every
// tool has moved.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ContractTool, ToolContext } from '../tool-kit.ts';
import { registerToolDefinition } from '../tool-kit.ts';
import { getMortgageRatesTool } from './get-mortgage-rates.ts';
import { getLoanLimitsTool } from './get-loan-limits.ts';
import { lookupGlossaryTermTool } from './lookup-glossary-term.ts';
import { getStatisticsTool } from './get-statistics.ts';
import { searchContentTool } from './search-content.ts';
import { getCongressBillsTool } from './get-congress-bills.ts';
import { getEconomicCalendarTool } from './get-economic-calendar.ts';
import { queryHmdaTool } from './query-hmda.ts';

// A tool not yet declared from a contract; typed loosely because their input/output shapes differ.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LegacyTool = Parameters<typeof registerToolDefinition<any, any>>[1];
export type McpTool = LegacyTool | ContractTool;

export function isContractTool(tool: McpTool): tool is ContractTool {
  return 'register' in tool;
}

export const tools: McpTool[] = [
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
  for (const tool of tools) {
    if (isContractTool(tool)) tool.register(server, context);
    else registerToolDefinition(server, tool, context);
  }
}
