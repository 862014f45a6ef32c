// Statistics and escrow from their contracts, without a database: the recorded statistics answers
// (tests/fixtures/contracts, captured from the real service over synced data) fit the contract
// exactly; get_statistics, called as the SDK calls it, hands the service the canonical request for
// every natural variant of the arguments; get_escrow_months over the real escrow service (its
// schedules are files) gives every variant the canonical answer; unknown arguments are refused
// naming the known ones; and /ask's model is shown JSON Schema LangChain can bind, whose lenient
// arguments reach the same answers.
import fs from 'node:fs';
import path from 'node:path';
import { tool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../api/config.ts';
import { flag, monthNumber, describeIssues } from '../../api/platform/contract/index.ts';
import {
  StatisticsAnswerSchema,
  StatisticsQuerySchema,
  type StatisticsAnswer,
  type StatisticsQuery,
} from '../../api/statistics/contract.ts';
import { EscrowAnswerSchema, EscrowQuerySchema } from '../../api/escrow/contract.ts';
import { createEscrowService } from '../../api/escrow/service.ts';
import { getStatisticsTool } from '../../api/mcp/tools/get-statistics.ts';
import { getEscrowMonthsTool } from '../../api/mcp/tools/get-escrow-months.ts';
import { askTools } from '../../api/ask/tools.ts';
import type { ToolContext } from '../../api/mcp/tool-kit.ts';
import { callLikeTheSdk, expectExactly, resultText as text, answering, serviceStub, toolContext } from '../support/contract-tool.ts';

const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'contracts', name), 'utf8'));

const escrow = createEscrowService({ sourceDir: undefined, clock: () => new Date('2026-03-15T12:00:00Z') });

/** get_statistics' context: a statistics service answering the recording, noting what it was asked. */
function statisticsContext(answer: StatisticsAnswer) {
  const { method, asked } = answering<StatisticsQuery | undefined, StatisticsAnswer>(answer);
  const statistics = serviceStub('statistics', { answer: method });
  return { context: toolContext(getStatisticsTool, { statistics }), asked };
}

/** get_escrow_months' context: the real escrow service (its schedules are files). */
const escrowContext = toolContext(getEscrowMonthsTool, { escrow });

describe('the statistics contract', () => {
  const list = expectExactly(StatisticsAnswerSchema, fixture('statistics-list-answer.json'));
  const one = expectExactly(StatisticsAnswerSchema, fixture('statistics-one-answer.json'));

  it('takes the recorded answers exactly: a list of the down-payment statistics, and one statistic', () => {
    expect(list.stats?.map((stat) => stat.category)).toEqual(Array(6).fill('down_payment'));
    expect(list.stats?.every((stat) => Number.isInteger(stat.data_year))).toBe(true);
    expect(list.stat).toBeUndefined();
    expect(one.stat?.id).toBe('pmms_30yr_latest');
    expect(one.sources).toEqual([{ url: one.stat?.source_url, as_of: one.stat?.as_of }]);
  });

  it('passes the recorded answer through get_statistics as structuredContent, with a line per statistic', async () => {
    const { context } = statisticsContext(list);
    const result = await callLikeTheSdk(getStatisticsTool, context, { category: 'down_payment' });
    expect(expectExactly(StatisticsAnswerSchema, result.structuredContent)).toEqual(list);
    expect(text(result)).toContain('[jumbo_threshold_20pct_down_2026, 2026]');
    expect(text(result)).toContain(`Source: ${list.sources[0]?.url}`);
  });

  it.each([
    [{ category: 'loan_types' }, { category: 'loan_types', all: true }],
    [{ category: 'Loan Types' }, { category: 'loan_types', all: true }],
    [{ category: ' LOAN-TYPES ' }, { category: 'loan_types', all: true }],
    [
      { category: 'rates', year: '2025' },
      { category: 'rates', year: 2025, all: true },
    ],
    [{ year: ' 2020 ' }, { year: 2020, all: true }],
    [{ id: 'PMMS_30YR_LATEST' }, { id: 'pmms_30yr_latest', all: true }],
    [{ id: ' pmms 30yr latest ' }, { id: 'pmms_30yr_latest', all: true }],
    [
      { category: 'rates', all: 'false' },
      { category: 'rates', all: false },
    ],
    [
      { category: 'rates', all: 'FALSE' },
      { category: 'rates', all: false },
    ],
    [
      { category: 'rates', all: 'no' },
      { category: 'rates', all: false },
    ],
    [
      { category: 'rates', all: 'True' },
      { category: 'rates', all: true },
    ],
    [{}, { all: true }],
  ])('asks the service %j as %j', async (args, canonical) => {
    const { context, asked } = statisticsContext(list);
    const result = await callLikeTheSdk(getStatisticsTool, context, args);
    expect(result.isError, text(result)).toBeFalsy();
    expect(asked).toEqual([canonical]);
  });

  it('refuses unknown arguments naming the known ones, and says what each argument accepts', async () => {
    const { context } = statisticsContext(list);
    expect(text(await getStatisticsTool.call({ category: 'rates', state: 'TX' }, context))).toBe(
      "Unknown argument 'state'. Known arguments: category, id, year, all, as_of, offset.",
    );
    expect(text(await getStatisticsTool.call({ category: 'mortgages' }, context))).toBe(
      'Invalid value for \'category\': "mortgages". Valid values: market_overview, rates, loan_types, down_payment, borrower_profile, lenders, affordability.',
    );
    expect(text(await getStatisticsTool.call({ year: 'last year' }, context))).toBe(
      'Invalid value for \'year\': "last year". Give a four-digit year from 1971 to 2100, e.g. 2025.',
    );
    expect(text(await getStatisticsTool.call({ all: 'maybe' }, context))).toBe('Invalid value for \'all\': "maybe". Give true or false.');
  });

  it('reads REST query strings with the same schema (all defaults to the featured statistic there)', () => {
    expect(StatisticsQuerySchema.parse({ category: 'Rates', year: '2025', all: 'true' })).toEqual({
      category: 'rates',
      year: 2025,
      all: true,
    });
    expect(StatisticsQuerySchema.parse({ category: 'rates' })).toEqual({ category: 'rates' });
  });
});

describe('the escrow contract, through the /ask tool over the real service', () => {
  const context = escrowContext;
  const canonical = escrow.answer({ state: 'NY', closing_month: 6, county: 'Kings County' });

  it('answers with the contract exactly and says it in words with its sources', async () => {
    const result = await callLikeTheSdk(getEscrowMonthsTool, context, { state: 'NY', closing_month: 6, county: 'Kings County' });
    expect(expectExactly(EscrowAnswerSchema, result.structuredContent)).toEqual(canonical);
    expect(canonical).toMatchObject({ stateCode: 'NY', closingMonthName: 'June', isCountySpecific: true });
    expect(text(result)).toContain(`closing in June: ${canonical.escrowMonths} months`);
    expect(text(result)).toContain('Source: 12 CFR 1024.17');
  });

  it.each([
    { state: 'ny', closing_month: '6', county: 'Brooklyn' },
    { state: 'New York', closing_month: 'June', county: 'kings' },
    { state: ' NEW YORK ', closing_month: 'jun', county: 'Kings County' },
    { state: 'NY', closing_month: '06', county: '36047' },
    { state: 'new york', closing_month: 6, county: 'Borough of Brooklyn' },
  ])('gives %j the canonical answer', async (args) => {
    const result = await callLikeTheSdk(getEscrowMonthsTool, context, args);
    expect(result.isError, text(result)).toBeFalsy();
    expect(result.structuredContent).toEqual(canonical);
  });

  it('defaults the closing month to the clock month and refuses what it does not know', async () => {
    expect((await getEscrowMonthsTool.invoke({ state: 'Texas' }, context)).structured).toMatchObject({ closingMonth: 3, escrowMonths: 5 });
    expect(text(await getEscrowMonthsTool.call({ state: 'TX', closing_month: 3, loan_amount: 300000 }, context))).toBe(
      "Unknown argument 'loan_amount'. Known arguments: state, closing_month, county, annual_tax.",
    );
    expect(text(await getEscrowMonthsTool.call({ state: 'TX', closing_month: 13 }, context))).toBe(
      'Invalid value for \'closing_month\': 13. Give a month number 1-12 or a month name, e.g. 3, "03", "March" or "mar".',
    );
    expect(text(await getEscrowMonthsTool.call({ state: 'Narnia' }, context))).toMatch(/^Invalid value for 'state': "Narnia"\. .*AK, AL/);
    expect(text(await getEscrowMonthsTool.call({ closing_month: 3 }, context))).toMatch(/^Missing 'state'\./);
  });

  it('answers the counties its description gives as examples with their county schedules', () => {
    const description = EscrowQuerySchema.shape.county.description ?? '';
    const examples: [string, string][] = [
      ['IL', 'Cook'],
      ['NY', 'Brooklyn'],
      ['IL', '17031'],
    ];
    for (const [state, county] of examples) {
      expect(description).toContain(`"${county}"`);
      expect(escrow.answer(EscrowQuerySchema.parse({ state, county })).isCountySpecific, county).toBe(true);
    }
  });

  it('serves each request once serialised: the same string for every spelling of it', () => {
    const json = escrow.answerJson(EscrowQuerySchema.parse({ state: 'IL', closing_month: 'march', county: 'Cook' }));
    expect(escrow.answerJson(EscrowQuerySchema.parse({ state: 'illinois', closing_month: '3', county: '17031' }))).toBe(json);
    expect(JSON.parse(json)).toEqual(escrow.answer({ state: 'IL', closing_month: 3, county: 'Cook County' }));
  });
});

describe('/ask binds the statistics and escrow tools', () => {
  const tools = askTools();
  const bound = (name: string) => {
    const definition = tools.find((candidate) => candidate.name === name);
    if (!definition) throw new Error(`/ask has no ${name}`);
    // As api/ask/model/answerer.ts binds it: the JSON Schema, not the zod schema.
    const parameters = convertToOpenAITool(
      tool(async () => '', { name, description: definition.description, schema: definition.parameters }),
    ).function.parameters as {
      properties: Record<string, { type?: string; enum?: string[]; minimum?: number; maximum?: number; description?: string }>;
      additionalProperties?: boolean;
      required?: string[];
    };
    return { definition, parameters };
  };

  it('shows the model get_statistics as enums, integers and booleans, nothing unknown allowed', () => {
    const { parameters } = bound('get_statistics');
    expect(Object.keys(parameters.properties)).toEqual(['category', 'id', 'year', 'all', 'as_of', 'offset']);
    expect(parameters.properties.category?.enum).toContain('loan_types');
    expect(parameters.properties.year).toMatchObject({ type: 'integer', minimum: 1971, maximum: 2100 });
    expect(parameters.properties.all).toMatchObject({ type: 'boolean', description: expect.stringMatching(/^true \(default\)/) });
    expect(parameters.additionalProperties).toBe(false);
  });

  it('shows the model get_escrow_months with the state as an enum and the month as an integer', () => {
    const { parameters } = bound('get_escrow_months');
    expect(Object.keys(parameters.properties)).toEqual(['state', 'closing_month', 'county', 'annual_tax']);
    expect(parameters.required).toEqual(['state']);
    expect(parameters.properties.state?.enum).toContain('TX');
    expect(parameters.properties.closing_month).toMatchObject({ type: 'integer', minimum: 1, maximum: 12 });
  });

  it("runs the model's lenient arguments to the canonical answers", async () => {
    const list = StatisticsAnswerSchema.parse(fixture('statistics-list-answer.json'));
    const { context: statisticsOnly, asked } = statisticsContext(list);
    // /ask hands every tool one context of all the services (AskTool.run): these two are all its tools here reach.
    const context = {
      ...statisticsOnly,
      deps: { ...statisticsOnly.deps, services: { ...statisticsOnly.deps.services, escrow } },
    } as ToolContext;
    const statistics = await bound('get_statistics').definition.run({ category: 'Down Payment', year: '2025' }, context);
    expect(statistics.structured).toEqual(list);
    expect(asked).toEqual([{ category: 'down_payment', year: 2025, all: true }]);
    const months = await bound('get_escrow_months').definition.run(
      { state: 'illinois', closing_month: 'Sept', county: 'cook county' },
      context,
    );
    expect(months.structured).toEqual(escrow.answer({ state: 'IL', closing_month: 9, county: 'Cook County' }));
    await expect(bound('get_escrow_months').definition.run({ state: 'IL', month: 9 }, context)).rejects.toMatchObject({
      status: 400,
      message: "Unknown argument 'month'. Known arguments: state, closing_month, county, annual_tax.",
    });
  });
});

describe('months and flags in the vocabulary', () => {
  const read = (schema: z.ZodType, value: unknown) => {
    const input = { p: value };
    const result = z.object({ p: schema }).safeParse(input);
    return result.success ? result.data.p : describeIssues(result.error.issues, input, 'query');
  };

  it.each([
    [3, 3],
    ['3', 3],
    [' 03 ', 3],
    ['March', 3],
    ['MARCH', 3],
    ['mar', 3],
    ['Mar.', 3],
    ['sept', 9],
    ['Sep', 9],
    ['december', 12],
    [12, 12],
  ])('reads the month %j as %j', (given, month) => expect(read(monthNumber(), given)).toBe(month));

  it.each([
    [0, '0'],
    [13, '13'],
    ['13', '13'],
    ['Marchember', '"Marchember"'],
    [3.5, '3.5'],
    ['', '""'],
  ])('refuses the month %j in one sentence', (given, shown) => {
    expect(read(monthNumber(), given)).toBe(
      `Invalid value for 'p': ${shown}. Give a month number 1-12 or a month name, e.g. 3, "03", "March" or "mar".`,
    );
  });

  it.each([
    [true, true],
    ['true', true],
    ['TRUE', true],
    [' yes ', true],
    ['1', true],
    [1, true],
    [false, false],
    ['False', false],
    ['no', false],
    ['0', false],
    [0, false],
  ])('reads the flag %j as %j', (given, value) => expect(read(flag(), given)).toBe(value));

  it.each([['maybe'], ['constructor'], [2], ['']])('refuses the flag %j', (given) => {
    expect(read(flag(), given)).toBe(`Invalid value for 'p': ${JSON.stringify(given)}. Give true or false.`);
  });
});
