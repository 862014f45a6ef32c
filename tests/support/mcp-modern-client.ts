// The official SDK client of the v2 line pinned to protocol 2026-07-28 (stateless: every request
// carries its version and capabilities; `server/discover` instead of a handshake), over HTTP.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const MODERN_VERSION = '2026-07-28';

export async function connectModernMcp(baseUrl: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mds-tests', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN_VERSION } } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', baseUrl), { requestInit: { headers } }));
  return client;
}
