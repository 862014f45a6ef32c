// A real MCP client (the SDK's Client over Streamable HTTP) connected to a test server. Every tool
// result any test receives through it is held to the tool-result budget (api/mcp/result-budget.ts):
// a larger result fails the test that asked for it, so no tool answer can grow past what common
// clients accept without a test noticing.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_RESULT_BUDGET_BYTES, toolResultBytes } from '../../api/mcp/result-budget.ts';

/** Throws (failing the test) when a tool result is over the budget. */
export function checkToolResultBudget(tool: string, result: unknown): void {
  const bytes = toolResultBytes(result as CallToolResult);
  if (bytes > TOOL_RESULT_BUDGET_BYTES) {
    throw new Error(
      `Tool ${tool} returned ${bytes.toLocaleString('en-US')} bytes of text and structured content, over the ` +
        `${TOOL_RESULT_BUDGET_BYTES.toLocaleString('en-US')}-byte tool-result budget: answer large results with a summary and a resource link.`,
    );
  }
}

/** The SDK client with every callTool result checked against the budget. */
class BudgetedClient extends Client {
  override async callTool(...args: Parameters<Client['callTool']>): ReturnType<Client['callTool']> {
    const result = await super.callTool(...args);
    checkToolResultBudget(args[0].name, result);
    return result;
  }
}

export async function connectMcp(baseUrl: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new BudgetedClient({ name: 'mds-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp', baseUrl), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** Every resource `resources/list` offers, following `nextCursor` page after page. */
export async function listAllResources(client: Client): Promise<{ resources: Resource[]; pages: number }> {
  const resources: Resource[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    resources.push(...page.resources);
    cursor = page.nextCursor;
    pages += 1;
    if (pages > 1_000) throw new Error('resources/list never ends: its cursor repeats');
  } while (cursor !== undefined);
  return { resources, pages };
}

/** The first text block of a tool result. */
export function resultText(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return blocks.find((block) => block.type === 'text')?.text ?? '';
}
