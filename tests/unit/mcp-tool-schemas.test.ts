// The input schemas `tools/list` publishes (api/mcp/tool-schemas.ts) against the tools' own
// argument parsing (what the SDK validates calls with), without a server: every natural call of the
// vocabulary tables passes both, every invalid one fails both, and for thousands of generated
// spellings around them (case, spaces, hyphens, signs, zeros, percent signs, stray characters) the
// JSON Schema, compiled by ajv's 2020-12 build, and the server agree. The schemas are portable (the
// Inspector's rules: no `type` arrays, no schema without a constraint, no boolean or remote schemas,
// regular expressions every engine reads) and the whole listing fits a model's budget.
import fc from 'fast-check';
import { z } from 'zod';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { tools } from '../../api/mcp/tools/index.ts';
import { toolListing } from '../../api/mcp/tool-listing.ts';
import { rangePattern, wordsPattern } from '../../api/platform/contract/patterns.ts';
import { CALENDAR_DAY_PATTERN } from '../../api/platform/contract/lenient.ts';
import { DATE_BOUND_TEXT } from '../../api/series/contract.ts';
import { PLACE_NAME_TEXT } from '../../api/platform/contract/places.ts';
import { STATE_LOOKUP_KEYS, TERRITORY_LOOKUP_KEYS } from '../../api/geo/states.ts';
import { VOCABULARY, WIDER, callOf, type Args } from '../support/mcp-vocabulary.ts';

type Schema = Record<string, unknown>;

const listed = toolListing().tools;
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validators = new Map(listed.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));

const schemaAccepts = (tool: string, args: Args) => validators.get(tool)!(args) === true;
const serverAccepts = (tool: string, args: Args) => tools.find((candidate) => candidate.name === tool)!.strictInput.safeParse(args).success;

describe('the published input schemas', () => {
  it('list every tool, compile as JSON Schema 2020-12 with strict ajv, and fit in 25 KB with the rest of the listing', () => {
    expect(listed.map((tool) => tool.name).sort()).toEqual(Object.keys(VOCABULARY).sort());
    expect(Buffer.byteLength(JSON.stringify(toolListing()))).toBeLessThanOrEqual(25_000);
    for (const tool of listed) {
      expect(tool.inputSchema.$schema, tool.name).toBeUndefined();
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(() => ajv.compile(tool.outputSchema as Schema), tool.name).not.toThrow();
    }
  });

  describe.each(Object.entries(VOCABULARY))('%s', (name, vocabulary) => {
    it.each(vocabulary.natural.map((args) => [JSON.stringify(args), args]))('accepts %s on both sides', (_label, args) => {
      const call = callOf(vocabulary, args as Args);
      expect(serverAccepts(name, call), 'server').toBe(true);
      expect(schemaAccepts(name, call), JSON.stringify(validators.get(name)!.errors)).toBe(true);
    });

    it.each(vocabulary.invalid.map((args) => [JSON.stringify(args), args]))('refuses %s on both sides', (_label, args) => {
      const call = callOf(vocabulary, args as Args);
      expect(serverAccepts(name, call), 'server').toBe(false);
      expect(schemaAccepts(name, call), 'schema').toBe(false);
    });
  });

  it('agree with the server on thousands of spellings around the natural ones', () => {
    // The characters people (and models) vary: case, separators, signs, zeros, percent, stray text.
    const mutate = (text: string): fc.Arbitrary<string> =>
      fc
        .array(
          fc.oneof(
            fc.constant((value: string) => value.toUpperCase()),
            fc.constant((value: string) => value.toLowerCase()),
            fc
              .nat()
              .map(
                (seed) => (value: string) =>
                  [...value].map((char, index) => ((seed >> (index % 30)) & 1 ? char.toUpperCase() : char.toLowerCase())).join(''),
              ),
            // The Kelvin sign, long s and dotted I change case into ASCII letters in toLowerCase/toUpperCase: never read as them.
            fc
              .constantFrom(
                ' ',
                '  ',
                '\t',
                '_',
                '-',
                ' - ',
                '__',
                '%',
                ' %',
                '+',
                '0',
                '.',
                '.0',
                ',',
                'x',
                '9',
                'é',
                '\u212a',
                '\u017f',
                '\u0130',
              )
              .chain((extra) =>
                fc
                  .nat({ max: 40 })
                  .map(
                    (at) => (value: string) => `${value.slice(0, at % (value.length + 1))}${extra}${value.slice(at % (value.length + 1))}`,
                  ),
              ),
            fc
              .nat({ max: 40 })
              .map((at) => (value: string) => value.slice(0, at % (value.length + 1)) + value.slice((at % (value.length + 1)) + 1)),
            fc.constantFrom([/_/g, ' '], [/_/g, '-'], [/ /g, '_'], [/-/g, ' ']).map(
              ([from, to]) =>
                (value: string) =>
                  value.replace(from as RegExp, to as string),
            ),
          ),
          { maxLength: 3 },
        )
        .map((changes) => changes.reduce((value, change) => change(value), text));
    let compared = 0;
    for (const [name, vocabulary] of Object.entries(VOCABULARY)) {
      const wider = new Set(WIDER[name] ?? []);
      for (const args of vocabulary.natural) {
        for (const [field, value] of Object.entries(args)) {
          const seeds = fc.oneof(
            typeof value === 'string' ? mutate(value) : mutate(JSON.stringify(value)),
            fc.oneof(fc.integer({ min: -5, max: 3000 }), fc.double({ min: -10, max: 1000, noNaN: true }), fc.boolean(), fc.constant(null)),
          );
          fc.assert(
            fc.property(seeds, (variant) => {
              const call = callOf(vocabulary, { ...args, [field]: variant });
              const server = serverAccepts(name, call);
              const schema = schemaAccepts(name, call);
              compared += 1;
              // A wider schema may take what the server refuses, never the other way round.
              if (wider.has(field)) return !server || schema;
              return server === schema;
            }),
            { numRuns: 60, seed: 29 },
          );
        }
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it('are wider than the server only where said: a place name of the right shape the server does not know', () => {
    for (const key of [...STATE_LOOKUP_KEYS, ...TERRITORY_LOOKUP_KEYS])
      expect(new RegExp(`^${PLACE_NAME_TEXT}$`).test(key), key).toBe(true);
    expect(schemaAccepts('get_loan_limits', { state: 'Narnia' })).toBe(true);
    expect(serverAccepts('get_loan_limits', { state: 'Narnia' })).toBe(false);
    expect(schemaAccepts('get_loan_limits', { state: 'Narnia 2' })).toBe(false);
    // Wider, never narrower: what the server takes has the shape, down to letters that only look like ASCII.
    expect(serverAccepts('get_loan_limits', { state: '\u212aansas' })).toBe(false);
  });

  it('are portable: no type arrays, no schema without a constraint, no boolean or remote schemas, plain regular expressions', () => {
    const constraining =
      /^(type|enum|const|pattern|minimum|maximum|minLength|maxLength|minItems|maxItems|items|properties|additionalProperties|required|anyOf|allOf|oneOf|not|\$ref)$/;
    const problems: string[] = [];
    const walk = (node: unknown, path: string, keyword?: string) => {
      if (typeof node === 'boolean') {
        if (keyword !== 'additionalProperties') problems.push(`${path}: boolean schema`);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Schema;
      if (Array.isArray(schema.type)) problems.push(`${path}: type array`);
      if (!Object.keys(schema).some((key) => constraining.test(key))) problems.push(`${path}: constrains nothing`);
      if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#/$defs/')) problems.push(`${path}: remote $ref`);
      if (typeof schema.pattern === 'string' && /\(\?[=!<]|\\[upPk]|\\\d/.test(schema.pattern))
        problems.push(`${path}: pattern needs more than every engine has`);
      for (const key of ['properties', '$defs'] as const)
        for (const [child, value] of Object.entries((schema[key] as Schema | undefined) ?? {})) walk(value, `${path}.${key}.${child}`);
      for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
        ((schema[key] as unknown[] | undefined) ?? []).forEach((value, index) => walk(value, `${path}.${key}[${index}]`));
      for (const key of ['items', 'additionalProperties', 'not'] as const)
        if (schema[key] !== undefined) walk(schema[key], `${path}.${key}`, key);
    };
    for (const tool of listed) {
      walk(tool.inputSchema, `${tool.name}.inputSchema`);
      walk(tool.outputSchema, `${tool.name}.outputSchema`);
    }
    expect(problems).toEqual([]);
  });

  it('say a repeated subschema once, in $defs: the calendar-day pattern of date and as_of', () => {
    const rates = listed.find((tool) => tool.name === 'get_mortgage_rates')!.inputSchema as unknown as Schema & {
      properties: Record<string, Schema>;
      $defs: Record<string, Schema>;
    };
    expect(rates.properties.date?.$ref).toBe(rates.properties.as_of?.$ref);
    const text = JSON.stringify(listed);
    const day = Object.values(rates.$defs).find(
      (definition) => typeof definition.pattern === 'string' && definition.pattern.includes('02-29'),
    );
    expect(rates.properties.as_of?.$ref).toBe(`#/$defs/${Object.entries(rates.$defs).find(([, definition]) => definition === day)?.[0]}`);
    // Once per tool that takes a day at most, never once per argument.
    const quoted = JSON.stringify(day?.pattern).slice(1, -1);
    expect(text.split(quoted).length - 1).toBeLessThanOrEqual(4);
  });
});

describe('the patterns', () => {
  it('match exactly the whole numbers of a range', () => {
    for (const [low, high] of [
      [0, 0],
      [0, 9],
      [1, 4],
      [1, 45],
      [1, 500],
      [1972, 2100],
      [2018, 2025],
      [300, 850],
      [0, 99_999],
      [7, 1234],
    ] as const) {
      const pattern = new RegExp(`^${rangePattern(low, high)}$`);
      for (let value = 0; value <= 110_000; value += value < 3000 ? 1 : 97)
        expect(pattern.test(String(value)), `${low}-${high}: ${value}`).toBe(value >= low && value <= high);
    }
  });

  it('match exactly the real calendar days, as zod and the date parser read them, on every day of every year', () => {
    const day = new RegExp(`^(?:${CALENDAR_DAY_PATTERN})$`);
    const bound = new RegExp(`^${DATE_BOUND_TEXT}$`);
    const isRealDay = (text: string) => {
      const time = Date.parse(`${text}T00:00:00Z`);
      return !Number.isNaN(time) && new Date(time).toISOString().startsWith(text);
    };
    const two = (value: number) => String(value).padStart(2, '0');
    const wrong: string[] = [];
    for (let year = 0; year <= 9999; year += 1) {
      const digits = String(year).padStart(4, '0');
      const inBounds = year >= 1900 && year <= 2199;
      if (bound.test(digits) !== inBounds) wrong.push(`bound ${digits}`);
      for (let month = 0; month <= 13; month += 1) {
        const ofMonth = `${digits}-${two(month)}`;
        if (bound.test(ofMonth) !== (inBounds && month >= 1 && month <= 12)) wrong.push(`bound ${ofMonth}`);
        for (let date = 0; date <= 32; date += 1) {
          const text = `${ofMonth}-${two(date)}`;
          if (day.test(text) !== z.core.regexes.date.test(text)) wrong.push(`day ${text}`);
          if (bound.test(text) !== (inBounds && isRealDay(text))) wrong.push(`bound ${text}`);
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('spell words in either case of their ASCII letters, sharing prefixes', () => {
    const pattern = new RegExp(`^${wordsPattern(['in_committee', 'introduced', 'law'], { space: '[\\s_-]+', separatorChar: '_' })}$`);
    for (const yes of ['In Committee', 'IN_COMMITTEE', 'in - committee', 'iNtRoDuCeD', 'law']) expect(pattern.test(yes), yes).toBe(true);
    for (const no of ['in', 'incommittee', 'laws', 'K', '\u212aaw']) expect(pattern.test(no), no).toBe(false);
  });
});
