// A real MCP client (the SDK's Client over Streamable HTTP) connected to a test server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function connectMcp(baseUrl: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mds-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp', baseUrl), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** The first text block of a tool result. */
export function resultText(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return blocks.find((block) => block.type === 'text')?.text ?? '';
}
