// The eight MCP tools of spec 4.6: names, one-line descriptions and whether a key is needed. The
// tool registry (./tools/index.ts) implements them; documentation files (brand-facts.json,
// llms.txt, /ai-info-page) list them from here and mark which ones the running registry serves.

export interface McpToolName {
  name: string;
  description: string;
  requiresKey: boolean;
}

export const MCP_TOOL_NAMES = [
  {
    name: 'get_mortgage_rates',
    description: "Today's lender rates by state, FICO tier and LTV, with the benchmark and national survey averages for comparison",
    requiresKey: false,
  },
  { name: 'get_loan_limits', description: 'Conforming, FHA, VA and USDA loan limits for every county', requiresKey: false },
  { name: 'lookup_glossary_term', description: 'Plain-language definitions for 131 mortgage terms, with FAQs and links', requiresKey: false },
  {
    name: 'get_statistics',
    description: 'Pre-computed market statistics from HMDA data: originations, approval rates, average loan amounts, FHA share and more',
    requiresKey: false,
  },
  { name: 'get_economic_calendar', description: 'Upcoming economic events; filter by impact level, category or date range', requiresKey: false },
  {
    name: 'search_content',
    description: 'Full-text search over articles, learn pages, glossary terms, research, tracked bills and market updates; returns excerpts and URLs',
    requiresKey: false,
  },
  { name: 'get_congress_bills', description: '45 tracked housing and mortgage bills: search by keyword, or get status, sponsors and analysis', requiresKey: false },
  {
    name: 'query_hmda',
    description: 'HMDA loan records: preset queries for rates, approvals, denials, demographics and lender rankings, or read-only SQL',
    requiresKey: true,
  },
] as const satisfies readonly McpToolName[];

export type McpToolNameValue = (typeof MCP_TOOL_NAMES)[number]['name'];
