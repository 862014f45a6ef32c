// Each MCP tool names the services it calls (`uses`) and is handed those alone: a tool is built and
// called in a test with only its own services, and one that reached for another would find nothing.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../api/platform/logger.ts';
import { createGlossaryService } from '../../api/glossary/service.ts';
import { defineTool, type ToolContext } from '../../api/mcp/tool-kit.ts';
import { tools } from '../../api/mcp/tools/index.ts';
import { lookupGlossaryTermTool } from '../../api/mcp/tools/lookup-glossary-term.ts';
import { serviceStub } from '../support/contract-tool.ts';

const settings = { baseUrl: 'http://localhost:3000', OIDC_ISSUER: undefined, SUPPORT_CONTACT: undefined };
const logger = createLogger('silent');

describe('the services each MCP tool declares', () => {
  it('every tool declares at least one, each once', () => {
    for (const tool of tools) {
      expect(tool.uses.length, tool.name).toBeGreaterThan(0);
      expect(new Set(tool.uses).size, tool.name).toBe(tool.uses.length);
    }
  });

  it('a tool runs with only the services it declared', async () => {
    const context: ToolContext<'glossary'> = {
      deps: { config: settings, logger, services: { glossary: createGlossaryService({ baseUrl: settings.baseUrl }) } },
      caller: { kind: 'anonymous' },
    };
    const answer = await lookupGlossaryTermTool.invoke({ term: 'PMI' }, context);
    expect(answer.structured.term).toMatch(/mortgage insurance/i);
  });

  it('a tool handed more services than it declared sees only its own', async () => {
    const seen = defineTool({
      name: 'seen_services',
      title: 'Seen services',
      description: 'The services its run was handed.',
      inputSchema: z.object({}),
      outputSchema: z.object({ names: z.array(z.string()), sources: z.array(z.unknown()) }),
      uses: ['glossary'],
      async run(_args, { deps }) {
        const names = Object.keys(deps.services);
        return { structured: { names, sources: [] }, text: names.join(', ') };
      },
    });
    const everything = {
      glossary: serviceStub('glossary', {}),
      rates: serviceStub('rates', {}),
      series: serviceStub('series', {}),
      hmda: serviceStub('hmda', {}),
    };
    const answer = await seen.invoke({}, { deps: { config: settings, logger, services: everything }, caller: { kind: 'anonymous' } });
    expect(answer.structured.names).toEqual(['glossary']);
  });
});
