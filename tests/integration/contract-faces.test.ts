// One schema per converted capability, on every face, over synced official data: the REST body, the
// MCP structuredContent (through a real MCP client, which checks it against the listed outputSchema)
// and the documents that describe them (OpenAPI's 200 schema, the tool's outputSchema) all come
// from the contract. Natural argument variants get the canonical answer on both faces; unknown
// names are refused on both, naming the known ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestDatabase } from '../support/databases.ts';
import { resultText } from '../support/mcp-client.ts';
import { openFaces, outputJsonSchema, toolOutputJsonSchema, type Args, type Faces } from '../support/faces.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { GlossaryAnswerSchema } from '../../api/glossary/contract.ts';
import { SearchAnswerSchema } from '../../api/search/contract.ts';
import { BillsAnswerSchema } from '../../api/bills/contract.ts';

interface Face {
  capability: string;
  path: string;
  tool: string;
  schema: z.ZodObject;
  /** Canonical arguments, then natural variants that must get the same answer. */
  canonical: Record<string, unknown>;
  variants: Record<string, unknown>[];
  /** The names the tool and the route accept, in order. */
  known: string[];
  /** Names only the tool accepts besides (get_congress_bills: `keyword`, the same as `query`). */
  toolOnly?: string[];
  /** Fields that echo how the question was asked rather than answer it. */
  echoes?: string[];
}

const FACES: Face[] = [
  {
    capability: 'glossary',
    path: '/glossary',
    tool: 'lookup_glossary_term',
    schema: GlossaryAnswerSchema,
    canonical: { term: 'Debt-to-income ratio (DTI)' },
    variants: [{ term: 'debt to income' }, { term: 'DTI' }, { term: ' dti ' }, { term: 'Debt To Income Ratio' }],
    known: ['term'],
    echoes: ['query', 'match'],
  },
  {
    capability: 'search',
    path: '/search',
    tool: 'search_content',
    schema: SearchAnswerSchema,
    canonical: { query: 'escrow cushion', type: 'glossary', limit: 3 },
    variants: [
      { query: ' escrow cushion ', type: 'GLOSSARY', limit: '3' },
      { query: 'escrow cushion', type: 'Glossary', limit: ' 3 ' },
    ],
    known: ['query', 'type', 'limit'],
  },
  {
    capability: 'bills',
    path: '/bills',
    tool: 'get_congress_bills',
    schema: BillsAnswerSchema,
    canonical: { status: 'passed_house', limit: 5 },
    variants: [
      { status: 'Passed House', limit: '5' },
      { status: 'PASSED-HOUSE', limit: 5 },
    ],
    known: ['query', 'bill_id', 'status', 'limit'],
    toolOnly: ['keyword'],
  },
  {
    capability: 'bills (one bill)',
    path: '/bills',
    tool: 'get_congress_bills',
    schema: BillsAnswerSchema,
    canonical: { bill_id: 'hr7735-117' },
    variants: [{ bill_id: 'HR7735-117' }, { bill_id: ' hr7735-117 ' }],
    known: ['query', 'bill_id', 'status', 'limit'],
    toolOnly: ['keyword'],
  },
];

describe.skipIf(!hasSourceData)('each contract on every face', () => {
  let database: TestDatabase;
  let faces: Faces;

  const rest = (path: string, args: Args | string) => faces.rest(path, args);
  const mcp = (tool: string, args: Args) => faces.mcp(tool, args);

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['bills', 'search_index']);
    faces = await openFaces(database.db);
  }, 240_000);

  afterAll(async () => {
    await faces?.close();
    await database?.drop();
  });

  describe.each(FACES)('$capability', (face) => {
    it('answers REST and MCP with one body the contract takes exactly', async () => {
      const { status, body } = await rest(face.path, face.canonical);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(face.schema.parse(body)).toEqual(body);
      const result = await mcp(face.tool, face.canonical);
      expect(result.isError, resultText(result)).toBeFalsy();
      expect(face.schema.parse(result.structuredContent)).toEqual(result.structuredContent);
      expect(result.structuredContent).toEqual(body);
    });

    it('documents that body in OpenAPI and in the tool listing from the same schema', () => {
      const expected = outputJsonSchema(face.schema);
      expect(faces.openapi.paths[face.path]?.get?.responses['200']?.content?.['application/json']?.schema).toEqual(expected);
      expect(faces.listed.find((tool) => tool.name === face.tool)?.outputSchema).toEqual(toolOutputJsonSchema(face.schema));
    });

    it('gives natural variants the canonical answer, on REST and MCP', async () => {
      const canonical = (await rest(face.path, face.canonical)).body;
      for (const variant of face.variants) {
        const viaRest = await rest(face.path, variant);
        expect(viaRest.status, `${JSON.stringify(variant)}: ${JSON.stringify(viaRest.body)}`).toBe(200);
        const viaMcp = await mcp(face.tool, variant);
        expect(viaMcp.isError, `${JSON.stringify(variant)}: ${resultText(viaMcp)}`).toBeFalsy();
        // Apart from fields echoing how it was asked (the glossary's query and match), the canonical answer.
        const answer = (body: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(body).filter(([key]) => !face.echoes?.includes(key)));
        expect(answer(viaRest.body), JSON.stringify(variant)).toEqual(answer(canonical));
        expect(answer(viaMcp.structuredContent as Record<string, unknown>), JSON.stringify(variant)).toEqual(answer(canonical));
      }
    });

    it('refuses an unknown name on both faces, listing the known ones', async () => {
      const asked = { ...face.canonical, credit_score: 760 };
      const viaRest = await rest(face.path, asked);
      expect(viaRest.status).toBe(400);
      expect(viaRest.body.error).toBe(
        `Unknown parameter 'credit_score'. Known parameters: ${face.known.join(', ')} (and api_key or secret for an API key).`,
      );
      const viaMcp = await mcp(face.tool, asked);
      expect(viaMcp.isError).toBe(true);
      expect(resultText(viaMcp)).toContain(
        `Unknown argument 'credit_score'. Known arguments: ${[...face.known, ...(face.toolOnly ?? [])].join(', ')}.`,
      );
    });
  });

  it('accepts the key parameters on a strict route and says a repeated parameter once', async () => {
    expect((await fetch(`${faces.url}/api/v1/glossary?term=APR&api_key=`)).status).not.toBe(400);
    const repeated = await fetch(`${faces.url}/api/v1/search?query=escrow&limit=3&limit=4`);
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toEqual({ error: "Parameter 'limit' was given more than once; give it once.", status: 400 });
  });

  it('documents every error status with the one error body, 405 included', () => {
    for (const [path, operations] of Object.entries(faces.openapi.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const status of ['400', '401', '405', '429', '500', '503']) {
          expect(operation.responses[status]?.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          });
        }
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400 && !response.content?.['text/plain']) {
            expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
              $ref: '#/components/schemas/Error',
            });
          }
        }
      }
    }
    expect(faces.openapi.paths['/glossary']?.get?.responses['404']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });
});
