// fast-check generators derived from JSON Schemas (the OpenAPI document's parameters and bodies,
// the MCP tools' input schemas): values that fit the schema, values that almost fit, and hostile
// ones, so every parameter a route or tool declares is fuzzed without a hand-written list.
import fc from 'fast-check';
import { shownValue } from '../../api/platform/contract/messages.ts';

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

/**
 * The schema with each local `$ref` ("#/$defs/<name>", how a listing says a shared subschema once)
 * replaced by the definition it names, the place's own keywords (its description) kept.
 */
export function inlineRefs(schema: JsonSchema, defs: Record<string, JsonSchema> = schema.$defs ?? {}): JsonSchema {
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (typeof node !== 'object' || node === null) return node;
    const { $ref, $defs: _defs, ...rest } = node as JsonSchema;
    const target = typeof $ref === 'string' && $ref.startsWith('#/$defs/') ? defs[$ref.slice('#/$defs/'.length)] : undefined;
    const merged: Record<string, unknown> = target ? { ...(resolve(target) as object), ...rest } : rest;
    return Object.fromEntries(
      Object.entries(merged).map(([key, value]) => [key, key === 'enum' || key === 'const' || key === 'default' ? value : resolve(value)]),
    );
  };
  return resolve(schema) as JsonSchema;
}

/** Strings that have broken services before: injection, traversal, encodings, sizes, prototypes. */
export const ATTACK_STRINGS = [
  "' OR '1'='1",
  '1; DROP TABLE api_keys; --',
  "' UNION SELECT key_hash FROM api_keys --",
  '"; SELECT pg_sleep(10); --',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '\u0000',
  'a\u0000b',
  '%00',
  '%',
  '%E0%A4%A',
  '\uD800',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '-0',
  '99999999999999999999999',
  '2026-02-30',
  '0000-00-00',
  '9999-12-31',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  ' ',
  '\t\n',
  '🏠💸',
  'Ｌｏｓ　Ａｎｇｅｌｅｓ',
  'x'.repeat(5_000),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ATTACK_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);

/** Any JSON value, including the wrong type for a field. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileString, { maxLength: 3 }),
);

// Many parameters are plain strings in the schema (a state, a county, a date) whose valid values
// the schema cannot list; these hints, by parameter or field name, let the "valid" runs reach real data.
export const NAME_HINTS: Record<string, fc.Arbitrary<string>> = {
  state: fc.constantFrom('CA', 'TX', 'co', 'New York', 'FL', 'DC', 'PR', 'ZZ'),
  county: fc.constantFrom('Los Angeles', 'Harris County', 'Denver', 'Kings', '06037', 'Nowhere'),
  from: fc
    .date({ min: new Date('2020-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10)),
  to: fc
    .date({ min: new Date('2020-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10)),
  date: fc
    .date({ min: new Date('2015-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10)),
  // Mostly today (the test's datasets were loaded today, so that version answers), sometimes any
  // day, most of which come before the first load or in the future and are refused.
  as_of: fc.oneof(
    { weight: 3, arbitrary: fc.constant(new Date().toISOString().slice(0, 10)) },
    {
      weight: 1,
      arbitrary: fc
        .date({ min: new Date('2015-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10)),
    },
  ),
  closing_month: fc.integer({ min: 0, max: 13 }).map(String),
  year: fc.integer({ min: 2015, max: 2027 }).map(String),
  query: fc.constantFrom('escrow', 'loan limit', 'APR', 'FHA mortgage insurance', 'points', 'jumbo'),
  term: fc.constantFrom('APR', 'escrow', 'PMI', 'debt to income', 'points', 'zzqx'),
  impact: fc.constantFrom('high', 'medium', 'low'),
  category: fc.constantFrom('fed', 'inflation', 'employment', 'housing', 'fed,housing'),
};

/** The same for numeric fields (MCP tools take numbers where the REST API takes strings). */
export const NUMBER_HINTS: Record<string, fc.Arbitrary<number>> = {
  loan_term: fc.constantFrom(10, 15, 20, 30, 25),
  fico: fc.integer({ min: 0, max: 6 }),
  ltv: fc.integer({ min: 0, max: 3 }),
  closing_month: fc.integer({ min: 0, max: 13 }),
  year: fc.integer({ min: 2017, max: 2027 }),
  units: fc.integer({ min: 0, max: 5 }),
  limit: fc.integer({ min: 0, max: 120 }),
};

function types(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** A value that fits `schema` (as far as its keywords say); `name` picks a hint for plain strings. */
export function validValue(schema: JsonSchema, depth = 0, name?: string): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const hint = name === undefined ? undefined : NAME_HINTS[name];
  if (hint && types(schema).every((type) => type === 'string') && !schema.anyOf && !schema.oneOf) {
    if (!schema.pattern) return hint;
    // A hint for the name (another tool's `category`) may not fit this schema's pattern: only the ones that do.
    const pattern = new RegExp(schema.pattern, 'u');
    const sampled = [...new Set(fc.sample(hint, 40))];
    const fitting = sampled.filter((value) => pattern.test(value));
    // Every one fits: the hint itself, with its weights (mostly today for `as_of`).
    if (fitting.length === sampled.length) return hint;
    if (fitting.length > 0) return fc.constantFrom(...fitting);
  }
  const numberHint = name === undefined ? undefined : NUMBER_HINTS[name];
  if (numberHint && types(schema).length > 0 && types(schema).every((type) => type === 'integer' || type === 'number')) return numberHint;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((alternative) => validValue(alternative, depth, name)));
  const [type] = types(schema);
  switch (type) {
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1_000, -1e6), max: Math.min(schema.maximum ?? 3_000, 1e6) });
    case 'number':
      return fc.double({ min: Math.max(schema.minimum ?? -1e6, -1e6), max: Math.min(schema.maximum ?? 1e6, 1e6), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      if (depth > 3) return fc.constant([]);
      // The items of a list are the values of its field: its hint applies to them too.
      return fc.array(validValue(schema.items ?? {}, depth + 1, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    }
    case 'object': {
      if (depth > 3) return fc.constant({});
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [field, property] of Object.entries(properties)) record[field] = validValue(property, depth + 1, field);
      return fc.record(record, { requiredKeys: Object.keys(properties).filter((field) => required.has(field)) });
    }
    case 'string':
    default: {
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern)).filter((value) => value.length <= (schema.maxLength ?? 200));
        } catch {
          // a pattern JavaScript cannot compile: fall through to plain strings
        }
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) });
    }
  }
}

/** Mostly-valid values with a hostile one mixed in now and then, for one field. */
export function fieldValue(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validValue(schema, 0, name) }, { weight: 2, arbitrary: hostileJson });
}

/** Arguments for an object schema: each property present or not, valid or hostile, plus strays. */
export function objectArguments(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) record[name] = fieldValue(property, name);
  return fc
    .tuple(
      fc.record(record, { requiredKeys: [] }),
      fc.option(fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'extra', 'toString', '$where'), hostileJson, { maxKeys: 2 }), {
        nil: undefined,
      }),
    )
    .map(([values, extra]) => ({ ...(extra ?? {}), ...values }));
}

/** Text that must never reach a client: stack frames, source paths, SQL, driver messages. */
export const STACK_PATTERNS: RegExp[] = [
  /\n\s+at [^\n]+:\d+:\d+/,
  /\bat (async )?[\w.<>]+ \((file:|node:|\/)/,
  /\.ts:\d+/,
  /node_modules/,
  /ECONNREFUSED|ECONNRESET/,
  /TypeError|ReferenceError|RangeError/,
];

export const SQL_PATTERNS: RegExp[] = [
  /\bSELECT\b[\s\S]{0,300}\bFROM\b/,
  /\bINSERT INTO\b/,
  /relation "[^"]+"/,
  /syntax error at or near/,
  /duplicate key value violates/,
];

export const LEAK_PATTERNS: RegExp[] = [...STACK_PATTERNS, ...SQL_PATTERNS];

/**
 * The first leak pattern found in `text`, ignoring the caller's own input echoed back (an error
 * message may quote the bad value it refuses; that is not a leak).
 */
export function leaks(text: string, sent: readonly string[] = [], patterns: readonly RegExp[] = LEAK_PATTERNS): RegExp | undefined {
  let scrubbed = text;
  for (const value of [...sent].sort((a, b) => b.length - a.length)) {
    if (value.length < 3) continue;
    for (const form of [value, JSON.stringify(value).slice(1, -1), JSON.stringify(JSON.stringify(value)).slice(1, -1)])
      scrubbed = scrubbed.split(form).join('');
  }
  return patterns.find((pattern) => pattern.test(scrubbed));
}

/**
 * What a response may legitimately echo of a value: every string inside it, and every array or
 * object inside it as the service's messages show a value given (`shownValue`: its JSON, cut at 80
 * characters). A cut can fall inside a hostile string, which the whole string would not scrub.
 */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return [shownValue(value), ...value.flatMap(stringsIn)];
  if (value && typeof value === 'object')
    return [shownValue(value), ...Object.entries(value).flatMap(([key, item]) => [key, ...stringsIn(item)])];
  return value === undefined ? [] : [String(value)];
}
