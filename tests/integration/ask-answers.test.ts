// /ask over synced official data, parsed with a real SSE parser: for each kind of question the
// chunks concatenate to an answer with the right figure, then one sources message, then done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { FAMILY_IDS } from '../../api/series/contract.ts';

const DATASETS = [
  'loan_limits_conforming',
  'loan_limits_fha',
  'pmms',
  'optimal_blue',
  'economic_calendar',
  'bills',
  'search_index',
  'hmda_aggregates',
  'hmda_lenders',
  'hud_median_family_income',
];

const KINDS: Array<[kind: string, question: string, expected: RegExp]> = [
  ['rates for a state and score', 'What mortgage rate can I get in Texas with a 760 credit score and 20% down?', /\d\.\d+%/],
  ['the weekly survey', 'What is the latest Freddie Mac 30-year fixed rate?', /7\.40%/],
  ['a county conforming limit', 'What is the 2026 conforming loan limit in Los Angeles County, California?', /\$1,249,125/],
  ['an FHA limit', 'What is the FHA loan limit in Cook County, Illinois for 2025?', /\$524,225/],
  [
    'an FHA limit without a year: the latest published, labelled',
    'What is the FHA loan limit in Los Angeles County, California?',
    /2025 FHA loan limit .* \*\*\$1,209,750\*\*[\s\S]*HUD's 2026 FHA county limits are not loaded\. Its national floor and ceiling for 2026, \$541,287 and \$1,249,125, are computed here, not published by HUD/,
  ],
  ['the national FHA floor', 'What is the national FHA loan limit floor for 2025?', /floor of \*\*\$524,225\*\*/],
  ['the USDA limit', 'What is the USDA loan limit?', /no loan limit/i],
  ['escrow months at closing', 'How many months of escrow at closing in Texas if I close in March?', /\*\*\d+ months\*\*/],
  ['a glossary term', 'What does PMI mean?', /private mortgage insurance/i],
  ['the next Fed meeting', 'When is the next Fed meeting?', /December 9, 2026/],
  ['an HMDA rate', 'What was the mortgage denial rate in Colorado in 2024?', /\d+\.\d%/],
  ['top lenders', 'Who were the top mortgage lenders in 2020?', /Quicken Loans/i],
  ['a congressional bill', 'Which bills in Congress deal with FHA mortgage insurance?', /\S/],
  ['something it cannot know', 'What is the population of Mars?', /won't guess/i],
  [
    "HUD's income limit for a household size",
    'What was the FY2021 very low-income (50%) limit for a family of four in Cook County, Illinois?',
    /very low-income \(50%\) limit for a household of 4: \*\*\$46,600\*\*/,
  ],
  [
    'what an HMDA code means',
    'What does loan purpose code 32 stand for in HMDA?',
    /loan purpose code \*\*32\*\* means \*\*Cash-out refinancing\*\*/,
  ],
  [
    'two codes of a field written as the LAR spec names it',
    'In HMDA, what do action_taken codes 4 and 6 mean?',
    /action taken code \*\*4\*\* means \*\*Application withdrawn by applicant\*\*[\s\S]*action taken code \*\*6\*\* means \*\*Purchased loan\*\*/,
  ],
  [
    "a code and the field's other codes",
    'On a HMDA loan record, what does HOEPA status 1 mean, and what are the other codes that field can take?',
    /HOEPA status code \*\*1\*\* means \*\*High-cost mortgage\*\*[\s\S]*\*\*1\*\* High-cost mortgage; \*\*2\*\* Not a high-cost mortgage; \*\*3\*\* Not applicable/,
  ],
  [
    'a county asked for without a year, after a refused lender: the county, never its state',
    "What was Chase's approval rate in Denver County in 2024, and how many loans did Denver County originate all told?",
    /Chase[\s\S]*Denver County, CO: Mortgages originated: [\d,]+ loans(?![\s\S]*in Colorado)/,
  ],
  [
    'a part after a refused ZIP, joined by "plus", for the year it points back to',
    'Give me HMDA denial rates for ZIP code 80202 in 2024, plus the Colorado statewide originations that year.',
    /ZIP code 80202[\s\S]*originated \*\*[\d,]+\*\* mortgages in Colorado in 2024/,
  ],
  [
    'a field given a value with "=", asked what it means without the word "code"',
    'On the HMDA public file, what does lien_status = 2 stand for? Is that a second mortgage?',
    /lien status code \*\*2\*\* means \*\*Secured by a subordinate lien\*\*/,
  ],
];

describe.skipIf(!hasSourceData)('POST /ask answers from synced data', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', DATASETS);
    testApp = await buildTestApp(database.db, {
      env: { RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' },
      clock: () => new Date('2026-11-22T12:00:00Z'),
    });
    // The server reads every series family into memory once it is up (api/series/warm-up.ts), so no
    // question waits for a cold read; the test app starts no jobs, so it reads them here.
    for (const family of FAMILY_IDS) await testApp.deps.services.series.readFamily(family).catch(() => undefined);
    server = await listen(testApp.app);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it.each(KINDS)('answers %s', async (_kind, question, expected) => {
    const response = await postAsk(server.url, { message: question });
    expect(response.status).toBe(200);
    const { messages, answer, sources } = await readAskStream(response);
    const types = messages.map((message) => message.type);
    expect(types.at(-1)).toBe('done');
    expect(types.at(-2)).toBe('sources');
    expect(types.slice(0, -2).every((type) => type === 'chunk')).toBe(true);
    expect(answer).toMatch(expected);
    expect(sources.length).toBeGreaterThanOrEqual(1);
  });

  it('answers a rate cell without its tier benchmark from a broader one, saying so, what it is and how old, never with operator commands', async () => {
    const { answer } = await readAskStream(
      await postAsk(server.url, { message: 'What mortgage rate can I get in Texas with a 705 credit score and 5% down?' }),
    );
    expect(answer).toMatch(
      /credit tier 700-719, 95% loan-to-value: \*\*\d\.\d+%\*\*.*This is a national figure, the same in every state\./,
    );
    expect(answer).toMatch(/not specific to the FICO or LTV tier asked for/);
    expect(answer).toMatch(/Freshness: .*stale \(\d+ scheduled releases since not loaded\)/);
    expect(answer).not.toMatch(/npm|MDS_SOURCE_DIR/);
  });

  it('gives the 15-year rate as the rate and keeps the 30-year figure beside it, flagging the older figures', async () => {
    const { answer } = await readAskStream(
      await postAsk(server.url, { message: "What is today's 15-year fixed mortgage rate in Colorado?" }),
    );
    expect(answer).toMatch(/For a 15-year Conventional loan in Colorado.*\*\*\d\.\d+%\*\* as of September 25, 2025/);
    expect(answer).toMatch(/The 30-year rate for the same profile is \*\*7\.40%\*\* as of October 8, 2026/);
    expect(answer).toMatch(/Not current: Freddie Mac Primary Mortgage Market Survey \(15-year fixed rate\) is from 2025-09-25/);
  });

  it('carries the topic of a conversation into a follow-up', async () => {
    const { answer } = await readAskStream(
      await postAsk(server.url, {
        message: 'And in Cook County, Illinois?',
        history: [
          { role: 'user', content: 'What is the 2025 FHA loan limit in Los Angeles County, California?' },
          { role: 'assistant', content: 'The 2025 FHA loan limit ...' },
        ],
      }),
    );
    expect(answer).toMatch(/\$524,225/);
  });
});
