// Statistics and escrow on every face, over the catalogue precomputed from the official files and
// the hand-kept tax schedules: the REST body, the MCP structuredContent (through a real MCP client,
// which checks it against the listed outputSchema) and the documents that describe them (OpenAPI's
// 200 schema, the tool's outputSchema) all come from one contract; natural argument variants get
// the canonical answer on REST and MCP; unknown names are refused on both, naming the known ones;
// and /ask's model, calling the tools with the lenient arguments a model writes, gets and cites
// the same figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.ts';
import { resultText } from '../support/mcp-client.ts';
import { openFaces, outputJsonSchema, toolOutputJsonSchema, type Args, type Faces } from '../support/faces.ts';
import { PageSchema } from '../../api/mcp/result-budget.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { StatisticsAnswerSchema } from '../../api/statistics/contract.ts';
import { EscrowAnswerSchema } from '../../api/escrow/contract.ts';

/** Canonical arguments, then natural variants that must get the same answer. */
interface Row {
  canonical: Args;
  variants: Args[];
}

const STATISTICS_REST: Row[] = [
  {
    canonical: { category: 'loan_types', year: 2025, all: true },
    variants: [
      { category: 'Loan Types', year: ' 2025 ', all: 'TRUE' },
      { category: 'LOAN-TYPES', year: '2025', all: 'yes' },
      { category: ' loan_types ', year: 2025, all: 1 },
    ],
  },
  {
    canonical: { id: 'pmms_30yr_latest' },
    variants: [{ id: 'PMMS_30YR_LATEST' }, { id: ' pmms 30yr latest ' }, { id: 'pmms-30yr-latest', all: 'false' }],
  },
  {
    canonical: { category: 'rates' },
    variants: [{ category: 'RATES' }, { category: ' Rates ', all: 'no' }, { category: 'rates', all: 0 }],
  },
  {
    canonical: { category: 'down_payment', all: true },
    variants: [
      { category: 'Down Payment', all: 'True' },
      { category: 'down-payment', all: '1' },
    ],
  },
];

/** On MCP `all` defaults to true: a category or year lists every match. */
const STATISTICS_MCP: Row[] = [
  {
    canonical: { category: 'loan_types', year: 2025, all: true },
    variants: [
      { category: 'Loan Types', year: '2025' },
      { category: 'LOAN-TYPES', year: ' 2025 ', all: 'true' },
      { category: 'loan_types', year: 2025 },
    ],
  },
  {
    canonical: { id: 'pmms_30yr_latest', all: false },
    variants: [
      { id: 'PMMS_30YR_LATEST', all: 'false' },
      { id: ' pmms 30yr latest ', all: 'no' },
    ],
  },
  {
    canonical: { category: 'rates', all: false },
    variants: [
      { category: 'Rates', all: 'FALSE' },
      { category: 'RATES', all: 0 },
    ],
  },
];

const ESCROW_REST: Row[] = [
  {
    canonical: { state: 'NY', closing_month: 6, county: 'Kings County' },
    variants: [
      { state: 'ny', closing_month: 'June', county: 'Brooklyn' },
      { state: 'New York', closing_month: 'jun', county: 'kings' },
      { state: ' NEW YORK ', closing_month: '06', county: '36047' },
    ],
  },
  {
    canonical: { state: 'IL', closing_month: 3, county: 'Cook County' },
    variants: [
      { state: 'illinois', closing_month: 'March', county: 'cook' },
      { state: 'Illinois', closing_month: 'MAR', county: '17031' },
    ],
  },
  {
    canonical: { state: 'TX', closing_month: 3 },
    variants: [
      { state: 'Texas', closing_month: 'march' },
      { state: 'tx', closing_month: '03' },
      { state: 'TEXAS', closing_month: ' 3 ' },
    ],
  },
];

describe.skipIf(!hasSourceData)('statistics and escrow on every face', () => {
  let database: TestDatabase;
  let faces: Faces;
  const clock = () => new Date('2026-11-22T12:00:00Z');

  const rest = (path: string, args: Args | string) => faces.rest(path, args);
  const mcp = (tool: string, args: Args) => faces.mcp(tool, args);

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['statistics']);
    faces = await openFaces(database.db, { clock, env: { MDS_SOURCE_DIR: SOURCE_DIR } });
  }, 240_000);

  afterAll(async () => {
    await faces?.close();
    await database?.drop();
  });

  describe('statistics', () => {
    it('answers REST and MCP with one body the contract takes exactly', async () => {
      for (const args of [
        { category: 'down_payment', all: true },
        { id: 'pmms_30yr_latest', all: false },
      ]) {
        const { status, body } = await rest('/statistics', args);
        expect(status, JSON.stringify(body)).toBe(200);
        expect(StatisticsAnswerSchema.parse(body)).toEqual(body);
        const result = await mcp('get_statistics', args);
        expect(result.isError, resultText(result)).toBeFalsy();
        expect(StatisticsAnswerSchema.parse(result.structuredContent)).toEqual(result.structuredContent);
        expect(result.structuredContent).toEqual(body);
      }
    });

    it('documents that body in OpenAPI and in the tool listing from the same schema', () => {
      const expected = outputJsonSchema(StatisticsAnswerSchema);
      expect(faces.openapi.paths['/statistics']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual(expected);
      expect(faces.listed.find((tool) => tool.name === 'get_statistics')?.outputSchema).toEqual(
        toolOutputJsonSchema(StatisticsAnswerSchema.extend({ page: PageSchema.optional() })),
      );
    });

    it.each(STATISTICS_REST)('gives REST variants of $canonical the canonical answer', async ({ canonical, variants }) => {
      const expected = await rest('/statistics', canonical);
      expect(expected.status, JSON.stringify(expected.body)).toBe(200);
      for (const variant of variants) {
        const answer = await rest('/statistics', variant);
        expect(answer.status, `${JSON.stringify(variant)}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(answer.body, JSON.stringify(variant)).toEqual(expected.body);
      }
    });

    it.each(STATISTICS_MCP)('gives MCP variants of $canonical the canonical answer, the REST one', async ({ canonical, variants }) => {
      const expected = await rest('/statistics', canonical);
      for (const variant of [canonical, ...variants]) {
        const result = await mcp('get_statistics', variant);
        expect(result.isError, `${JSON.stringify(variant)}: ${resultText(result)}`).toBeFalsy();
        expect(result.structuredContent, JSON.stringify(variant)).toEqual(expected.body);
      }
    });

    it('refuses an unknown name on both faces, listing the known ones', async () => {
      const viaRest = await rest('/statistics', { category: 'rates', state: 'TX' });
      expect(viaRest).toEqual({
        status: 400,
        body: {
          status: 400,
          error: "Unknown parameter 'state'. Known parameters: category, id, year, all, as_of (and api_key or secret for an API key).",
        },
      });
      const viaMcp = await mcp('get_statistics', { category: 'rates', state: 'TX' });
      expect(viaMcp.isError).toBe(true);
      expect(resultText(viaMcp)).toContain("Unknown argument 'state'. Known arguments: category, id, year, all, as_of, offset.");
    });

    it('says the same thing on both faces for a bad value', async () => {
      const viaRest = await rest('/statistics', { category: 'mortgages' });
      const viaMcp = await mcp('get_statistics', { category: 'mortgages' });
      expect(viaRest.status).toBe(400);
      expect(viaMcp.isError).toBe(true);
      expect(resultText(viaMcp)).toContain(String(viaRest.body.error));
      expect(viaRest.body.error).toMatch(/^Invalid value for 'category': "mortgages"\. Valid values: market_overview, rates, /);
    });
  });

  describe('escrow', () => {
    it('answers REST with a body the contract takes exactly, documented by the same schema', async () => {
      const { status, body } = await rest('/escrow', { state: 'IL', closing_month: 3, county: 'Cook County' });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(EscrowAnswerSchema.parse(body)).toEqual(body);
      expect(faces.openapi.paths['/escrow']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual(
        outputJsonSchema(EscrowAnswerSchema),
      );
    });

    it.each(ESCROW_REST)('gives REST variants of $canonical the canonical answer', async ({ canonical, variants }) => {
      const expected = await rest('/escrow', canonical);
      expect(expected.status, JSON.stringify(expected.body)).toBe(200);
      for (const variant of variants) {
        const answer = await rest('/escrow', variant);
        expect(answer.status, `${JSON.stringify(variant)}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(answer.body, JSON.stringify(variant)).toEqual(expected.body);
      }
    });

    it('refuses an unknown name listing the known ones, and a bad month saying what a month is', async () => {
      expect(await rest('/escrow', { state: 'TX', closing_month: 3, loan_amount: 300000 })).toEqual({
        status: 400,
        body: {
          status: 400,
          error:
            "Unknown parameter 'loan_amount'. Known parameters: state, closing_month, county, annual_tax (and api_key or secret for an API key).",
        },
      });
      expect((await rest('/escrow', { state: 'TX', closing_month: 'Marchember' })).body.error).toBe(
        'Invalid value for \'closing_month\': "Marchember". Give a month number 1-12 or a month name, e.g. 3, "03", "March" or "mar".',
      );
    });

    it('is a REST resource and a tool of the one registry: MCP lists it as /ask does', () => {
      expect(faces.listed.map((tool) => tool.name)).toContain('get_escrow_months');
      expect(faces.listed).toHaveLength(11);
    });
  });

  describe('/ask with a model calling the tools as a model writes arguments', () => {
    const askWith = async (toolCall: { name: string; arguments: Args }, message: string) => {
      const fake: FakeOpenAi = await startFakeOpenAi({ toolCall });
      const app = await buildTestApp(database.db, {
        clock,
        env: {
          MDS_SOURCE_DIR: SOURCE_DIR,
          OPENAI_BASE_URL: fake.url,
          OPENAI_API_KEY: 'test-key',
          ASK_MODEL: 'test-model',
          ASK_TIMEOUT_MS: '5000',
        },
      });
      const askServer = await listen(app.app);
      await app.deps.services.ask.ready; // the model's answers are under test, not the start
      try {
        const stream = await readAskStream(await postAsk(askServer.url, { message }));
        return { ...stream, requests: fake.requests };
      } finally {
        await askServer.close();
        await app.close();
        await fake.close();
      }
    };

    it('answers statistics from get_statistics called with a category in words and the year as text', async () => {
      const { answer, sources, requests } = await askWith(
        { name: 'get_statistics', arguments: { category: 'Loan Types', year: '2025' } },
        'What share of mortgages were FHA in 2025?',
      );
      const expected = StatisticsAnswerSchema.parse((await rest('/statistics', { category: 'loan_types', year: 2025, all: true })).body);
      const first = expected.stats?.[0];
      expect(answer).toBe(`According to the data: - ${first?.headline} [${first?.id}, 2025]`);
      expect(sources).toEqual(expect.arrayContaining(expected.sources.map((source) => source.url)));
      // One registry: the model is offered exactly the tools MCP lists.
      expect(requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(faces.listed.map((tool) => tool.name));
    }, 60_000);

    it('answers escrow from get_escrow_months called with a state name, a month name and a county in lower case', async () => {
      const { answer, sources } = await askWith(
        { name: 'get_escrow_months', arguments: { state: 'illinois', closing_month: 'March', county: 'cook county' } },
        'How many months of escrow at closing in Cook County, Illinois in March?',
      );
      const expected = EscrowAnswerSchema.parse((await rest('/escrow', { state: 'IL', closing_month: 3, county: 'Cook County' })).body);
      expect(answer).toBe(
        `According to the data: Illinois (IL), closing in March: ${expected.escrowMonths} months of property tax collected into escrow at closing (county schedule).`,
      );
      const pages = expected.sources.flatMap((source) => (source.url ? [source.url] : []));
      expect(sources).toEqual(expect.arrayContaining(pages));
      expect(sources.every((url) => /^https?:\/\//.test(url))).toBe(true);
    }, 60_000);
  });
});
