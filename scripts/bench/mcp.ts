// MCP calls: tools/call latency through the SDK client (Streamable HTTP, as an AI client makes it)
// for get_mortgage_rates and get_loan_limits, target p50 < 10 ms; then throughput with 20
// concurrent clients posting the same JSON-RPC call (the endpoint is stateless: no session), beside
// the bare-Express baseline.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BenchModule, BenchRow } from './types.ts';
import { peakRssMb, runLoad, serviceRow } from './load.ts';
import { sampleLatency } from './latency.ts';

const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'get_mortgage_rates', arguments: {} },
  { name: 'get_loan_limits', arguments: { state: 'CA', county: 'Los Angeles', loan_type: 'conforming' } },
];
const TARGET_P50_MS = 10;
const CLIENTS = 20;

export const run: BenchModule = async (context) => {
  const { service, seconds, quick } = context;
  const client = new Client({ name: 'mds-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', service.url)));
  const rows: BenchRow[] = [];
  try {
    for (const call of CALLS) {
      const first = await client.callTool(call);
      if (first.isError)
        throw new Error(`${call.name} answered an error: ${JSON.stringify(first.content).slice(0, 200)} (is its dataset synced?)`);
      const latency = await sampleLatency(quick ? 150 : 600, async () => (await client.callTool(call)).isError !== true, 20);
      rows.push({
        family: 'mcp',
        name: `tools/call ${call.name} (SDK client, one at a time)`,
        requestsPerSecond: latency.perSecond,
        p50Ms: latency.p50Ms,
        p99Ms: latency.p99Ms,
        errors: latency.errors,
        peakRssMb: peakRssMb(service.pid),
        target: `p50 < ${TARGET_P50_MS} ms`,
        met: latency.p50Ms < TARGET_P50_MS,
      });
    }
  } finally {
    await client.close();
  }

  for (const call of CALLS) {
    const result = await runLoad({
      url: `${service.url}/api/mcp`,
      method: 'POST',
      connections: CLIENTS,
      durationSeconds: seconds,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call }),
    });
    rows.push(serviceRow('mcp', `tools/call ${call.name}, ${CLIENTS} concurrent clients`, result, context));
  }
  return rows;
};
