// The contract vocabulary, table by table: what each lenient helper accepts and what it makes of
// it, what it refuses and how the refusal reads (the parameter named, the valid values listed, one
// message), and that its JSON Schema stays exact (enums, integers) for OpenAPI and MCP clients.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  calendarDate,
  choice,
  countyName,
  decimal,
  describeIssues,
  downPaymentLtvTier,
  ficoTier,
  ficoTierOrBelow,
  integer,
  list,
  ltvTier,
  matchByWords,
  stateCode,
  stateOrTerritoryCode,
  strictArguments,
  text,
} from '../../api/platform/contract/index.ts';

/** Parses `{ [name]: value }` and returns the data, or the one message a caller would read. */
function read(schema: z.ZodType, value: unknown, name = 'p'): { ok: true; data: unknown } | { ok: false; message: string } {
  const input = { [name]: value };
  const result = z.object({ [name]: schema }).safeParse(input);
  return result.success
    ? { ok: true, data: result.data[name] }
    : { ok: false, message: describeIssues(result.error.issues, input, 'query') };
}

const accepts = (schema: z.ZodType, value: unknown) => {
  const result = read(schema, value);
  if (!result.ok) throw new Error(`refused ${JSON.stringify(value)}: ${result.message}`);
  return result.data;
};
const refusal = (schema: z.ZodType, value: unknown, name = 'p') => {
  const result = read(schema, value, name);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(value)} as ${JSON.stringify(result.data)}`);
  return result.message;
};
const inputJson = (schema: z.ZodType) => {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
};

describe('choice', () => {
  const format = choice(['detailed', 'simple']);
  const status = choice(['in_committee', 'became_law'], { aliases: { law: 'became_law' } });

  it.each([
    ['simple', 'simple'],
    ['SIMPLE', 'simple'],
    ['  Detailed ', 'detailed'],
  ])('reads %j as %j', (given, expected) => expect(accepts(format, given)).toBe(expected));

  it.each([
    ['In Committee', 'in_committee'],
    ['in-committee', 'in_committee'],
    ['BECAME_LAW', 'became_law'],
    ['law', 'became_law'],
  ])('reads %j as %j, spaces and hyphens for underscores, aliases too', (given, expected) => expect(accepts(status, given)).toBe(expected));

  it.each([['summary'], [''], [3], [null]])('refuses %j naming the parameter and every valid value', (given) => {
    expect(refusal(format, given, 'format')).toBe(`Invalid value for 'format': ${JSON.stringify(given)}. Valid values: detailed, simple.`);
  });

  it('keeps the enum in JSON Schema', () => {
    expect(inputJson(format)).toMatchObject({ type: 'string', enum: ['detailed', 'simple'] });
  });
});

describe('integer and decimal', () => {
  const limit = integer({ min: 1, max: 50 });
  const rate = decimal({ min: 0, max: 20 });

  it.each([
    [3, 3],
    ['3', 3],
    [' 50 ', 50],
    ['+7', 7],
  ])('integer reads %j as %j', (given, expected) => expect(accepts(limit, given)).toBe(expected));

  it.each([['3.5'], [3.5], ['three'], [''], [0], ['51'], [null], [true]])(
    'integer refuses %j with one message giving the range',
    (given) => {
      // Numeric text is shown as the number it was read as.
      const shown = JSON.stringify(typeof given === 'string' && /^\d+$/.test(given) ? Number(given) : given);
      expect(refusal(limit, given, 'limit')).toBe(`Invalid value for 'limit': ${shown}. Give a whole number from 1 to 50.`);
    },
  );

  it.each([
    ['6.25', 6.25],
    [6.25, 6.25],
    ['.5', 0.5],
    ['7', 7],
  ])('decimal reads %j as %j', (given, expected) => expect(accepts(rate, given)).toBe(expected));

  it.each([['6,25'], ['21'], ['NaN'], ['1e3']])('decimal refuses %j', (given) => {
    expect(refusal(rate, given, 'rate')).toContain("Invalid value for 'rate'");
  });

  it('shows as an integer (and a number) with its range', () => {
    expect(inputJson(limit)).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(inputJson(rate)).toMatchObject({ type: 'number', minimum: 0, maximum: 20 });
  });
});

describe('text', () => {
  const query = text({ max: 10, example: 'APR' });
  it('trims', () => expect(accepts(query, '  APR  ')).toBe('APR'));
  it.each([[''], ['   '], ['x'.repeat(11)], [5]])('refuses %j saying the length', (given) => {
    expect(refusal(query, given, 'term')).toMatch(/^Invalid value for 'term'.*Give up to 10 characters, e.g. "APR"\.$/);
  });
  it('says a required one is missing', () => {
    const result = z.object({ term: query }).safeParse({});
    expect(result.success).toBe(false);
    expect(describeIssues(result.error?.issues ?? [], {}, 'query')).toBe(`Missing 'term'. Give up to 10 characters, e.g. "APR".`);
  });
});

describe('calendarDate', () => {
  const date = calendarDate();
  it.each([['2024-02-29'], [' 2026-03-18 ']])('accepts the real day %j', (given) =>
    expect(accepts(date, given)).toBe(String(given).trim()),
  );
  it.each([['yesterday'], ['2025-02-29'], ['2025-04-31'], ['2025-13-01'], ['2025-1-5'], ['20250105']])(
    'refuses %j in one message, said once',
    (given) => {
      const message = refusal(date, given, 'date');
      expect(message).toBe(
        `Invalid value for 'date': ${JSON.stringify(given)}. Give a real calendar day written YYYY-MM-DD, e.g. "2026-03-18".`,
      );
      expect(message.match(/Invalid value/g)).toHaveLength(1);
    },
  );
  it('shows as a date string', () => expect(inputJson(date)).toMatchObject({ type: 'string', format: 'date' }));
});

describe('list', () => {
  const impact = list(choice(['high', 'medium', 'low']));

  it.each([
    ['high', ['high']],
    ['HIGH', ['high']],
    ['high,medium', ['high', 'medium']],
    ['high, Medium ,', ['high', 'medium']],
    [
      ['low', 'high'],
      ['low', 'high'],
    ],
    [
      ['low,medium', 'high'],
      ['low', 'medium', 'high'],
    ],
  ])('reads %j as %j', (given, expected) => expect(accepts(impact, given)).toEqual(expected));

  it.each([['extreme'], ['high,extreme'], [[]], [','], [5]])('refuses %j naming the valid values once', (given) => {
    const message = refusal(impact, given, 'impact');
    expect(message).toMatch(/^Invalid value for 'impact'/);
    expect(message).toContain('high, medium, low');
    expect(message.match(/Invalid value/g)).toHaveLength(1);
  });

  it('shows one value or an array of the enum', () => {
    expect(inputJson(impact)).toEqual({
      anyOf: [
        { type: 'string', enum: ['high', 'medium', 'low'] },
        { type: 'array', items: { type: 'string', enum: ['high', 'medium', 'low'] }, minItems: 1, maxItems: 50 },
      ],
    });
  });
});

describe('stateCode', () => {
  const state = stateCode();
  it.each([
    ['TX', 'TX'],
    ['tx', 'TX'],
    [' Texas ', 'TX'],
    ['new  york', 'NY'],
    ['DISTRICT OF COLUMBIA', 'DC'],
  ])('reads %j as %j', (given, expected) => expect(accepts(state, given)).toBe(expected));

  it.each([['ZZ'], ['Texass'], ['PR'], ['']])('refuses %j listing the 51 codes', (given) => {
    const message = refusal(state, given, 'state');
    expect(message).toMatch(new RegExp(`^Invalid value for 'state': ${JSON.stringify(given)}\\. Give a 2-letter code or a state name`));
    expect(message).toContain('AK, AL, AR');
    expect(message).toContain('WV, WY.');
  });

  it('takes territories only where a capability asks for them', () => {
    expect(accepts(stateOrTerritoryCode(), 'Puerto Rico')).toBe('PR');
    expect(accepts(stateOrTerritoryCode(), 'gu')).toBe('GU');
    expect(accepts(stateOrTerritoryCode(), 'texas')).toBe('TX');
  });

  it('keeps the 51 codes as an enum', () => {
    expect((inputJson(state).enum as string[]).length).toBe(51);
  });
});

describe('countyName', () => {
  const county = countyName();
  it.each([
    ['Los Angeles', 'Los Angeles'],
    ['  Cook   County ', 'Cook County'],
    ['Orleans Parish', 'Orleans Parish'],
    ['Brooklyn', 'Kings County'],
    ['brooklyn borough', 'Kings County'],
    ['Manhattan', 'New York County'],
    ['Staten Island', 'Richmond County'],
    ['The Bronx', 'Bronx County'],
    ['bronx', 'Bronx County'],
    ['Queens', 'Queens County'],
    ['06037', '06037'],
  ])('reads %j as %j', (given, expected) => expect(accepts(county, given)).toBe(expected));

  it.each([[''], ['x'.repeat(101)], [6037]])('refuses %j saying what a county looks like', (given) => {
    expect(refusal(county, given, 'county')).toMatch(/^Invalid value for 'county'.*5-digit FIPS code\.$/);
  });
});

describe('ficoTier', () => {
  const fico = ficoTier();
  it.each([
    [1, { tier: 1, given: 1, as: 'tier', note: null }],
    ['5', { tier: 5, given: 5, as: 'tier', note: null }],
    [850, { tier: 1, given: 850, as: 'score', note: 'A FICO score of 850 is in tier 1 (780+).' }],
    [780, { tier: 1, given: 780, as: 'score', note: 'A FICO score of 780 is in tier 1 (780+).' }],
    ['760', { tier: 2, given: 760, as: 'score', note: 'A FICO score of 760 is in tier 2 (740-779).' }],
    [739, { tier: 3, given: 739, as: 'score', note: 'A FICO score of 739 is in tier 3 (720-739).' }],
    [700, { tier: 4, given: 700, as: 'score', note: 'A FICO score of 700 is in tier 4 (700-719).' }],
    [680, { tier: 5, given: 680, as: 'score', note: 'A FICO score of 680 is in tier 5 (680-699).' }],
  ])('reads %j as %j', (given, expected) => expect(accepts(fico, given)).toEqual(expected));

  it.each([[679], [650], [300]])('refuses the score %j: no published tier covers it', (given) => {
    expect(refusal(fico, given, 'fico')).toBe(
      `Invalid value for 'fico': ${given}. A FICO score of ${given} is below 680, the lowest score a published rate tier covers (tier 5 is 680-699), so no published rate applies to it.`,
    );
  });

  it.each([[0], [6], [299], [851], ['760.5'], ['excellent']])('refuses %j saying tiers and scores', (given) => {
    expect(refusal(fico, given, 'fico')).toMatch(/^Invalid value for 'fico'.*Give a FICO tier 1-5 .* or a score 300-850/);
  });

  it('shows tiers and scores as integers', () => {
    expect(inputJson(fico)).toEqual({
      anyOf: [
        { type: 'integer', minimum: 1, maximum: 5 },
        { type: 'integer', minimum: 680, maximum: 850 },
      ],
    });
  });

  it('reads a score below 680 as below every tier where the answer covers every score (ficoTierOrBelow)', () => {
    expect(accepts(ficoTierOrBelow(), 640)).toEqual({
      tier: null,
      given: 640,
      as: 'score',
      note: 'A FICO score of 640 is below 680, the lowest published tier.',
    });
    expect(accepts(ficoTierOrBelow(), '760')).toMatchObject({ tier: 2 });
    expect(inputJson(ficoTierOrBelow())).toEqual({
      anyOf: [
        { type: 'integer', minimum: 1, maximum: 5 },
        { type: 'integer', minimum: 300, maximum: 850 },
      ],
    });
  });
});

describe('ltvTier and downPaymentLtvTier', () => {
  it.each([
    [1, 1, 'tier'],
    ['2', 2, 'tier'],
    [80, 1, 'ltv_percent'],
    ['80%', 1, 'ltv_percent'],
    [80.5, 2, 'ltv_percent'],
    [95, 2, 'ltv_percent'],
    [100, 2, 'ltv_percent'],
  ])('ltv %j is tier %j (read as %s)', (given, tier, as) => expect(accepts(ltvTier(), given)).toMatchObject({ tier, as }));

  it('says how a percent was read', () => {
    expect(accepts(ltvTier(), 80)).toMatchObject({ note: 'An LTV of 80% is in LTV tier 1 (75%).' });
  });

  it.each([[0], [2.5], [101], ['high']])('refuses ltv %j', (given) =>
    expect(refusal(ltvTier(), given, 'ltv')).toMatch(/^Invalid value for 'ltv'/),
  );

  it.each([[3], [20], ['10%'], [49.5]])('refuses ltv %j as ambiguous: it reads like a down payment', (given) =>
    expect(refusal(ltvTier(), given, 'ltv')).toMatch(/is ambiguous: it reads like a down payment\. For .*% down give down_payment=/),
  );

  it.each([
    [20, 1],
    ['25%', 1],
    [19.9, 2],
    [3.5, 2],
    [0, 2],
  ])('a down payment of %j%% is LTV tier %j', (given, tier) => {
    const reading = accepts(downPaymentLtvTier(), given) as { tier: number; note: string };
    expect(reading.tier).toBe(tier);
    expect(reading.note).toMatch(/down payment is an LTV of/);
  });

  it.each([[-1], [98], ['twenty']])('refuses a down payment of %j', (given) => {
    expect(refusal(downPaymentLtvTier(), given, 'down_payment')).toMatch(/^Invalid value for 'down_payment'.*percent of the price/);
  });
});

describe('strictArguments', () => {
  const input = z.object({ state: stateCode().optional(), fico: ficoTier().optional() });

  it('refuses unknown names, listing the known ones, for REST and MCP alike', () => {
    const args = { state: 'FL', credit_score: 760, down_payment: 20 };
    const mcp = strictArguments(input, 'argument').safeParse(args);
    expect(mcp.error?.issues.map((issue) => issue.message)).toEqual([
      "Unknown arguments 'credit_score', 'down_payment'. Known arguments: state, fico.",
    ]);
    const rest = strictArguments(input, 'parameter', { alsoAccepted: ['api_key', 'secret'] }).safeParse({ state: 'FL', foo: '1' });
    expect(describeIssues(rest.error?.issues ?? [], { foo: '1' }, 'query')).toBe(
      "Unknown parameter 'foo'. Known parameters: state, fico (and api_key or secret for an API key).",
    );
  });

  it('keeps the fields and says so in JSON Schema', () => {
    const json = inputJson(strictArguments(input, 'argument'));
    expect(json.additionalProperties).toBe(false);
    expect(Object.keys(json.properties as object)).toEqual(['state', 'fico']);
  });
});

describe('matchByWords', () => {
  const candidates = [
    { names: ['Debt-to-income ratio (DTI)', 'DTI'], value: 'dti' },
    { names: ['Loan-to-value ratio (LTV)', 'LTV'], value: 'ltv' },
    { names: ['Closing costs'], value: 'closing-costs' },
    { names: ['Interest rate'], value: 'interest-rate' },
    { names: ['Rate lock'], value: 'rate-lock' },
  ];
  it.each([
    ['debt to income', 'dti'],
    ['Debt-To-Income', 'dti'],
    ['income debt', 'dti'],
    ['loan to value', 'ltv'],
    ['closing cost', 'closing-costs'],
    ['the closing costs', 'closing-costs'],
  ])('%j finds %j', (query, expected) => expect(matchByWords(query, candidates).best).toBe(expected));

  it('names no best when several match equally, but lists them', () => {
    const match = matchByWords('rate', candidates);
    expect(match.best).toBeUndefined();
    expect(match.matches.sort()).toEqual(['interest-rate', 'rate-lock']);
  });

  it.each([['mortgage insurance'], ['of the'], ['']])('finds nothing for %j', (query) =>
    expect(matchByWords(query, candidates).best).toBeUndefined(),
  );
});
