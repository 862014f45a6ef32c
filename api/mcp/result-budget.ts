// The size every tool result must stay under. Common MCP clients refuse (or cut) a result above
// about 25,000 tokens; JSON of figures runs about 3.2 bytes per token, so 80,000 bytes of text plus
// structured content is that limit. A tool whose answer could be larger returns its first rows and
// links to files instead (query_hmda); the test client fails any test that gets a larger result.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const TOOL_RESULT_BUDGET_BYTES = 80_000;

/** Bytes of a result as a client's model would read it: every text block plus the structured content as JSON. */
export function toolResultBytes(result: Pick<CallToolResult, 'content' | 'structuredContent'>): number {
  let bytes = result.structuredContent === undefined ? 0 : Buffer.byteLength(JSON.stringify(result.structuredContent));
  for (const block of result.content ?? []) {
    bytes += block.type === 'text' ? Buffer.byteLength(block.text) : Buffer.byteLength(JSON.stringify(block));
  }
  return bytes;
}
