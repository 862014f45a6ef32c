// Rates and loan limits on every face, over synced official data: the REST body and the MCP
// structuredContent (through the SDK client, which checks it against the listed outputSchema) are
// one answer the contract takes exactly, and OpenAPI and the tool listing carry the contract's
// schema. A table of natural argument variants gets the canonical answer on REST and MCP; unknown
// names are refused on both, naming the known ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSsrHandler } from '../../api/server.ts';
import { buildTestApp, listen, testConfig } from '../support/app.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import type { TestDatabase } from '../support/databases.ts';
import { resultText } from '../support/mcp-client.ts';
import { openFaces, outputJsonSchema, toolOutputJsonSchema, type Args, type Faces } from '../support/faces.ts';
import { PageSchema } from '../../api/mcp/result-budget.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { DetailedRateRecordSchema, RateRecordSchema, SimpleRateRecordSchema } from '../../api/rates/contract.ts';
import { LoanLimitHistoryResponseSchema, LoanLimitsAnswerSchema } from '../../api/loan-limits/contract.ts';
import { HistorySchema } from '../../api/series/tool-history.ts';

interface Face {
  capability: string;
  path: string;
  tool: string;
  /** The schema both faces answer with. */
  schema: z.ZodObject;
  canonical: Args;
  /** Natural variants that must get the canonical answer, apart from `echoes`. */
  variants: Args[];
  /** Fields that say how the question was asked rather than answer it. */
  echoes?: string[];
}

const RATE_ARGUMENTS = [
  'state',
  'fico',
  'ltv',
  'down_payment',
  'product_type',
  'occupancy',
  'property_type',
  'loan_term',
  'loan_purpose',
  'date',
  'as_of',
];
const LIMIT_ARGUMENTS = ['state', 'county', 'year', 'loan_type', 'units', 'as_of'];
// The tools add the history range arguments of the series capability to the REST parameters.
const RATE_TOOL_ARGUMENTS = [...RATE_ARGUMENTS, 'from', 'to'];
const LIMIT_TOOL_ARGUMENTS = [...LIMIT_ARGUMENTS, 'from_year', 'to_year', 'offset'];

const FACES: Face[] = [
  {
    capability: 'rates',
    path: '/rates',
    tool: 'get_mortgage_rates',
    schema: DetailedRateRecordSchema,
    canonical: { state: 'TX', fico: 2, ltv: 1, product_type: 'conventional', loan_term: 30 },
    variants: [
      { state: 'Texas', fico: 2 },
      { state: 'tx', fico: '2', ltv: '1' },
      { state: 'TEXAS', fico: 740 },
      { state: 'TX', fico: '760', loan_term: '30' },
      { state: 'TX', fico: 2, ltv: 80 },
      { state: 'TX', fico: 2, ltv: '75%' },
      { state: 'TX', fico: 2, down_payment: 20 },
      { state: 'tx', fico: 2, down_payment: '25%', product_type: 'Conventional', loan_term: '30-year' },
    ],
    echoes: ['parameter_notes'],
  },
  {
    capability: 'rates (FHA, a past day)',
    path: '/rates',
    tool: 'get_mortgage_rates',
    schema: DetailedRateRecordSchema,
    canonical: { state: 'FL', fico: 5, ltv: 2, product_type: 'fha', date: '2024-01-05' },
    variants: [
      { state: 'florida', fico: 690, down_payment: 3.5, product_type: 'FHA', date: ' 2024-01-05 ' },
      { state: 'Fl', fico: '5', ltv: '96.5%', product_type: 'Fha', date: '2024-01-05' },
    ],
    echoes: ['parameter_notes'],
  },
  {
    capability: 'loan limits (a borough)',
    path: '/loan-limits',
    tool: 'get_loan_limits',
    schema: LoanLimitsAnswerSchema,
    canonical: { state: 'NY', county: 'Kings County', year: 2025, loan_type: 'fha' },
    variants: [
      { state: 'NY', county: 'Brooklyn', year: 2025, loan_type: 'FHA' },
      { state: 'new york', county: 'brooklyn', year: '2025', loan_type: 'Fha' },
      { state: 'New York', county: 'Kings', year: ' 2025 ', loan_type: 'fha' },
      { state: 'ny', county: '36047', year: '2025', loan_type: 'FHA' },
    ],
  },
  {
    capability: 'loan limits (a county, one unit)',
    path: '/loan-limits',
    tool: 'get_loan_limits',
    schema: LoanLimitsAnswerSchema,
    canonical: { state: 'CA', county: 'Los Angeles County', year: 2026, loan_type: 'conforming', units: 1 },
    variants: [
      { state: 'California', county: 'Los Angeles', year: '2026', loan_type: 'Conforming', units: '1' },
      { state: 'ca', county: 'los angeles county', year: 2026, loan_type: 'CONVENTIONAL', units: 1 },
    ],
  },
  {
    capability: 'loan limits (a parish, the default year)',
    path: '/loan-limits',
    tool: 'get_loan_limits',
    schema: LoanLimitsAnswerSchema,
    canonical: { state: 'LA', county: 'Orleans Parish' },
    variants: [
      { state: 'Louisiana', county: 'Orleans' },
      { state: 'la', county: 'orleans parish', loan_type: 'ALL' },
    ],
  },
];

describe.skipIf(!hasSourceData)('rates and loan limits on every face', () => {
  let database: TestDatabase;
  let faces: Faces;

  const rest = (path: string, args: Args | string) => faces.rest(path, args);
  const mcp = (tool: string, args: Args) => faces.mcp(tool, args);
  const without = (body: Record<string, unknown>, echoes: string[] = []) =>
    Object.fromEntries(Object.entries(body).filter(([key]) => !echoes.includes(key)));

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', ['pmms', 'optimal_blue', 'loan_limits_conforming', 'loan_limits_fha']);
    faces = await openFaces(database.db, { clock: () => new Date('2026-11-22T12:00:00Z') });
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

    it('gives natural variants the canonical answer, on REST and MCP', async () => {
      const canonical = without((await rest(face.path, face.canonical)).body, face.echoes);
      for (const variant of face.variants) {
        const viaRest = await rest(face.path, variant);
        expect(viaRest.status, `${JSON.stringify(variant)}: ${JSON.stringify(viaRest.body)}`).toBe(200);
        expect(without(viaRest.body, face.echoes), JSON.stringify(variant)).toEqual(canonical);
        const viaMcp = await mcp(face.tool, variant);
        expect(viaMcp.isError, `${JSON.stringify(variant)}: ${resultText(viaMcp)}`).toBeFalsy();
        expect(without(viaMcp.structuredContent as Record<string, unknown>, face.echoes), JSON.stringify(variant)).toEqual(canonical);
      }
    });
  });

  it('documents each body in OpenAPI and in the tool listing from the contract', () => {
    const ok = (path: string) => faces.openapi.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(ok('/rates')).toEqual(outputJsonSchema(RateRecordSchema));
    expect(ok('/loan-limits')).toEqual(outputJsonSchema(LoanLimitsAnswerSchema));
    expect(ok('/loan-limits/history')).toEqual(outputJsonSchema(LoanLimitHistoryResponseSchema));
    expect(faces.listed.find((tool) => tool.name === 'get_mortgage_rates')?.outputSchema).toEqual(
      toolOutputJsonSchema(DetailedRateRecordSchema.extend({ history: HistorySchema.optional() })),
    );
    expect(faces.listed.find((tool) => tool.name === 'get_loan_limits')?.outputSchema).toEqual(
      toolOutputJsonSchema(LoanLimitsAnswerSchema.extend({ history: HistorySchema.optional(), page: PageSchema.optional() })),
    );
    // The parameters the route documents are the arguments the tool lists (the route adds `format`).
    expect(faces.openapi.paths['/rates']?.get?.parameters.map((parameter) => parameter.name)).toEqual([
      ...RATE_ARGUMENTS.slice(0, -2),
      'format',
      'date',
      'as_of',
    ]);
    expect(Object.keys(faces.listed.find((tool) => tool.name === 'get_mortgage_rates')?.inputSchema.properties ?? {})).toEqual(
      RATE_TOOL_ARGUMENTS,
    );
    expect(Object.keys(faces.listed.find((tool) => tool.name === 'get_loan_limits')?.inputSchema.properties ?? {})).toEqual(
      LIMIT_TOOL_ARGUMENTS,
    );
    for (const [path, status] of [
      ['/rates', '404'],
      ['/rates', '503'],
      ['/loan-limits', '404'],
      ['/loan-limits/history', '404'],
    ] as const) {
      expect(faces.openapi.paths[path]?.get?.responses[status]?.content?.['application/json']?.schema, `${path} ${status}`).toEqual({
        $ref: '#/components/schemas/Error',
      });
    }
  });

  it('says how a score and a down payment were read, in the answer on both faces', async () => {
    const notes = ['A FICO score of 740 is in tier 2 (740-779).', 'A 20% down payment is an LTV of 80%, in LTV tier 1 (75%).'];
    const viaRest = await rest('/rates', { state: 'TX', fico: 740, down_payment: 20 });
    expect(viaRest.body).toMatchObject({ parameter_notes: notes, parameters: { fico_tier: '740-779', ltv_tier: '75%' } });
    const viaMcp = await mcp('get_mortgage_rates', { state: 'TX', fico: 740, down_payment: 20 });
    expect(viaMcp.structuredContent).toMatchObject({ parameter_notes: notes });
    expect(resultText(viaMcp).split('\n').slice(0, 2)).toEqual(notes);
  });

  it('says the same on /ask, with the figure REST gives for that cell', async () => {
    const response = await postAsk(faces.url, { message: 'What mortgage rate can I get in Texas with a 760 credit score and 20% down?' });
    const { answer } = await readAskStream(response);
    expect(answer).toContain('A FICO score of 760 is in tier 2 (740-779).');
    expect(answer).toContain('A 20% down payment is an LTV of 80%, in LTV tier 1 (75%).');
    const { body } = await rest('/rates', { state: 'TX', fico: 2, ltv: 1 });
    expect(answer).toContain(`credit tier 740-779, 75% loan-to-value: **${Number(body.rate).toFixed(2)}%**`);
  });

  it("reads the pages' URLs with the same contracts", async () => {
    await ensureSiteBuiltForTests();
    const pages = await buildTestApp(database.db, {
      clock: () => new Date('2026-11-22T12:00:00Z'),
      options: { ssrHandler: await loadSsrHandler(testConfig()) },
    });
    const site = await listen(pages.app);
    try {
      const rates = await fetch(`${site.url}/rates?years=1&state=texas&fico=760&down_payment=20`);
      expect(rates.status).toBe(200);
      const ratesHtml = await rates.text();
      expect(ratesHtml).toContain('A FICO score of 760 is in tier 2 (740-779).');
      expect(ratesHtml).toMatch(/<option value="TX" selected>Texas<\/option>/);
      expect(ratesHtml).toMatch(/<option value="2" selected>740-779<\/option>/);
      // The JSON link carries the lookup's parameters only, which the strict route accepts.
      const link = /href="(\/api\/v1\/rates\?[^"]*)"/.exec(ratesHtml)?.[1]?.replaceAll('&amp;', '&');
      expect(link).toBe('/api/v1/rates?state=texas&fico=760&down_payment=20');
      expect((await fetch(`${faces.url}${link}`)).status).toBe(200);
      const bad = await fetch(`${site.url}/rates?state=texas&fico=640`);
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('A FICO score of 640 is below 680');

      const limits = await (await fetch(`${site.url}/loan-limits?state=new%20york&county=Brooklyn&year=2025`)).text();
      expect(limits).toMatch(/New York, 2025: Kings County/);
      expect(limits).toContain('$1,209,750');
      expect(limits).toMatch(/<option value="NY" selected>New York<\/option>/);
    } finally {
      await site.close();
      await pages.close();
    }
  }, 300_000);

  it('serves the simple record for format in any case', async () => {
    const canonical = await rest('/rates', 'state=TX&fico=2&format=simple');
    expect(SimpleRateRecordSchema.strict().parse(canonical.body)).toEqual(canonical.body);
    for (const query of ['state=texas&fico=760&format=SIMPLE', 'state=tx&fico=2&format=Simple&loan_term=30']) {
      expect((await rest('/rates', query)).body, query).toEqual(canonical.body);
    }
  });

  it('refuses unknown names on both faces, listing the known ones, instead of answering the default cell', async () => {
    const asked = { state: 'FL', credit_score: 760, down_payment: 20 };
    const viaRest = await rest('/rates', asked);
    expect(viaRest).toEqual({
      status: 400,
      body: {
        error: `Unknown parameter 'credit_score'. Known parameters: ${[...RATE_ARGUMENTS.slice(0, -2), 'format', 'date', 'as_of'].join(', ')} (and api_key or secret for an API key).`,
        status: 400,
      },
    });
    const viaMcp = await mcp('get_mortgage_rates', asked);
    expect(viaMcp.isError).toBe(true);
    expect(resultText(viaMcp)).toContain(`Unknown argument 'credit_score'. Known arguments: ${RATE_TOOL_ARGUMENTS.join(', ')}.`);

    const limits = await rest('/loan-limits', { state: 'CA', county: 'Los Angeles', zip: '90001' });
    expect(limits.body.error).toBe(
      `Unknown parameter 'zip'. Known parameters: ${LIMIT_ARGUMENTS.join(', ')} (and api_key or secret for an API key).`,
    );
    const limitsMcp = await mcp('get_loan_limits', { state: 'CA', zip: '90001' });
    expect(resultText(limitsMcp)).toContain(`Unknown argument 'zip'. Known arguments: ${LIMIT_TOOL_ARGUMENTS.join(', ')}.`);
    expect((await rest('/loan-limits/history', { program: 'fha', since: 2000 })).body.error).toBe(
      "Unknown parameter 'since'. Known parameters: program, from, to (and api_key or secret for an API key).",
    );
  });

  it('says a repeated parameter, a day that is not one and conflicting tiers once each', async () => {
    expect(await rest('/rates', 'state=CO&state=TX')).toEqual({
      status: 400,
      body: { error: "Parameter 'state' was given more than once; give it once.", status: 400 },
    });
    expect(await rest('/loan-limits', 'state=CA&year=2025&year=2026')).toEqual({
      status: 400,
      body: { error: "Parameter 'year' was given more than once; give it once.", status: 400 },
    });
    expect(await rest('/rates', 'date=yesterday')).toEqual({
      status: 400,
      body: {
        error: 'Invalid value for \'date\': "yesterday". Give a real calendar day written YYYY-MM-DD, e.g. "2026-03-18".',
        status: 400,
      },
    });
    expect((await rest('/rates', 'date=2025-02-29')).body.error).toBe(
      'Invalid value for \'date\': "2025-02-29". Give a real calendar day written YYYY-MM-DD, e.g. "2026-03-18".',
    );
    expect((await rest('/rates', 'ltv=1&down_payment=5')).body.error).toBe(
      "'ltv' (1) and 'down_payment' (5) name different LTV tiers (75% and 95%); give one of them.",
    );
    expect(await rest('/loan-limits/history', 'program=FHA&from=2021&to=2020')).toEqual({
      status: 400,
      body: { error: "Invalid value for 'from': 2021 is after 'to' (2020); 'from' must not be after 'to'.", status: 400 },
    });
    const history = await rest('/loan-limits/history', 'program=FHA&from=2020&to=2021');
    expect(
      LoanLimitHistoryResponseSchema.strict()
        .parse(history.body)
        .fha?.map((entry) => entry.year),
    ).toEqual([2020, 2021]);
  });
});
