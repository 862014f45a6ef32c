// The lenient input vocabulary shared by every face (REST query strings, MCP arguments, /ask, pages):
// what a person or an agent naturally writes is accepted, and what is not gets one message that
// names the parameter and says what is valid. Each helper keeps its JSON Schema exact (enums stay
// enums, integers stay integers): normalising happens in `z.preprocess`, whose input side JSON
// Schema skips, never in a `.transform().pipe()`, whose input side it would print as a bare string.
//
// Each helper also declares, once, the JSON Schema of everything it accepts before normalising
// (`acceptedInputOf`): "Texas", "wa", "FHA", "90%", "15" as well as the canonical values. The MCP
// tool listing publishes that (api/mcp/tool-schemas.ts), so a client that validates arguments with
// the listed schema accepts exactly the calls the server accepts; the OpenAPI document and /ask
// keep the canonical values (what an answer echoes).
import { z } from 'zod';
import { listValues, valueMessage } from './messages.ts';
import { foldCase, grouped, integerTextPattern, numberTextPattern, trimmed, wordsPattern } from './patterns.ts';

/** A JSON Schema object, as published. */
export type JsonSchema = Record<string, unknown>;

/** What a lenient schema accepts before normalising. */
export interface AcceptedInput {
  /** JSON Schema (2020-12) of every value the schema accepts: canonical forms and the others. */
  json: JsonSchema;
  /**
   * For text forms other helpers compose (a list of choices): the pattern of one accepted text,
   * without anchors or the surrounding spaces trimming removes.
   */
  text?: string;
}

const acceptedInputs = new WeakMap<z.ZodType, AcceptedInput>();

/** Declares what `schema` accepts before normalising; returns `schema`. */
function accepting<S extends z.ZodType>(schema: S, input: AcceptedInput): S {
  acceptedInputs.set(schema, input);
  return schema;
}

/**
 * What a schema built here accepts, or undefined for other schemas. `.describe()` and `.meta()` copy
 * a schema; the copy answers for the helper's own schema it came from.
 */
export function acceptedInputOf(schema: z.ZodType): AcceptedInput | undefined {
  for (let current: z.core.$ZodType | undefined = schema; current; current = current._zod.parent) {
    const input = acceptedInputs.get(current as z.ZodType);
    if (input) return input;
  }
  return undefined;
}

/** `z.preprocess(normalise, schema)` that accepts, before normalising, what `input` says. */
export function lenient<S extends z.ZodType>(normalise: (value: unknown) => unknown, schema: S, input: AcceptedInput) {
  return accepting(z.preprocess(normalise, schema), input);
}

/** A string branch matching `body` (no anchors) with the spaces around it that trimming removes. */
export const textForms = (body: string): JsonSchema => ({ type: 'string', pattern: trimmed(body) });

type Issue = { path?: PropertyKey[] | undefined; input?: unknown };

/** What each helper's schema accepts, in words: `list()` quotes its item's. */
const hints = new WeakMap<z.ZodType, string>();

function withHint<S extends z.ZodType>(schema: S, hint: string): S {
  hints.set(schema, hint);
  return schema;
}

/** The words a schema built here uses for what it accepts ('' for other schemas). */
export function hintOf(schema: z.ZodType): string {
  return hints.get(schema) ?? '';
}

const errorFor = (hint: string) => (issue: Issue) => valueMessage(issue, hint);

/**
 * "In Committee", "in-committee", " IN_COMMITTEE ", "in - committee" → `in_committee`. Letters fold
 * as the listing's case-insensitive patterns fold them (`foldCase`): ASCII letters, and the Kelvin
 * sign and long s that Unicode folding maps onto k and s.
 */
export function choiceKey(value: string): string {
  return value
    .trim()
    .replace(/[A-Z\u212a\u017f]+/g, foldCase)
    .replace(/[\s_-]+/g, '_');
}

export interface ChoiceOptions<T extends string> {
  /** Other spellings (any case, spaces or hyphens for underscores) and the value each means. */
  aliases?: Readonly<Record<string, T>>;
  /** Replaces the default "Valid values: …" sentence. */
  hint?: string;
  /** A number is read as its text, so numeric aliases (codes: `2` for "fha") work as numbers too. */
  numbers?: boolean;
}

/** What stands for an underscore of a choice key: spaces, hyphens and underscores, one or more. */
const KEY_SEPARATOR = '[\\s_-]+';

/** One of `values`, in any case, trimmed, with spaces or hyphens for underscores, or an alias. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, options: ChoiceOptions<T[number]> = {}) {
  const byKey = new Map<string, T[number]>();
  for (const value of values) byKey.set(choiceKey(value), value);
  for (const [alias, value] of Object.entries(options.aliases ?? {})) byKey.set(choiceKey(alias), value);
  const hint = options.hint ?? `Valid values: ${listValues(values)}.`;
  // A value not recognised is passed on unchanged, so the message shows what the caller wrote.
  const normalise = (given: unknown) => {
    const value = options.numbers && typeof given === 'number' ? String(given) : given;
    return typeof value === 'string' ? (byKey.get(choiceKey(value)) ?? value) : value;
  };
  const text = wordsPattern([...byKey.keys()], { space: KEY_SEPARATOR, separatorChar: '_' });
  const codes = options.numbers ? [...byKey.keys()].filter((key) => /^\d+$/.test(key) && String(Number(key)) === key).map(Number) : [];
  // The pattern spells each value and alias (any case): the values themselves are the description's to name.
  const json: JsonSchema = codes.length > 0 ? { anyOf: [textForms(text), { type: 'number', enum: codes }] } : textForms(text);
  return withHint(lenient(normalise, z.enum(values, { error: errorFor(hint) }), { json, text }), hint);
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A number given as text ("3", " 4.5 ") becomes the number; anything else is left to fail. */
function numericText(pattern: RegExp) {
  return (value: unknown) => (typeof value === 'string' && pattern.test(value.trim()) ? Number(value.trim()) : value);
}

export interface RangeOptions {
  min: number;
  max: number;
  hint?: string;
}

/** A whole number from `min` to `max`, given as a number or as text ("3"). */
export function integer({ min, max, hint = `Give a whole number from ${min} to ${max}.` }: RangeOptions) {
  const error = errorFor(hint);
  // Text of a number below zero other than -0 is never in a range this exact pattern describes.
  const text = min >= 0 ? integerTextPattern(min, max) : '[+-]?\\d+';
  const json = { anyOf: [{ type: 'integer', minimum: min, maximum: max }, textForms(text)] };
  return withHint(lenient(numericText(INTEGER_TEXT), z.int({ error }).min(min, { error }).max(max, { error }), { json, text }), hint);
}

/** A number from `min` to `max`, given as a number or as text ("4.5"). */
export function decimal({ min, max, hint = `Give a number from ${min} to ${max}.` }: RangeOptions) {
  const error = errorFor(hint);
  // The exact pattern needs whole bounds from 0; other ranges publish any decimal text (the range in `minimum`/`maximum`).
  const text = Number.isInteger(min) && Number.isInteger(max) && min >= 0 ? numberTextPattern(min, max) : DECIMAL_TEXT.source.slice(1, -1);
  const json = { anyOf: [{ type: 'number', minimum: min, maximum: max }, textForms(text)] };
  return withHint(lenient(numericText(DECIMAL_TEXT), z.number({ error }).min(min, { error }).max(max, { error }), { json, text }), hint);
}

export interface TextOptions {
  min?: number;
  max: number;
  /** An example that fits, quoted in the message. */
  example?: string;
}

/**
 * Text of at most `max` characters as given, of which at least `min` (default 1) are left after
 * trimming. (The length counts the text as sent, so JSON Schema's `maxLength` says it exactly.)
 */
export function text({ min = 1, max, example }: TextOptions) {
  const hint = `Give ${min <= 1 ? 'up' : `${min} up`} to ${max} characters${example ? `, e.g. "${example}"` : ''}.`;
  const error = errorFor(hint);
  return withHint(
    lenient(trimWithin(max), z.string({ error }).min(min, { error }).max(max, { error }), { json: textJson(min, max) }),
    hint,
  );
}

/** Trims text of at most `max` characters; longer text is passed on as given, for the length check to refuse. */
export function trimWithin(max: number, normalise: (value: string) => string = (value) => value.trim()) {
  return (value: unknown) => (typeof value === 'string' && value.length <= max ? normalise(value) : value);
}

/** Text of at most `max` characters with at least `min` that are not spaces (between the first and last of them). */
export function textJson(min: number, max: number): JsonSchema {
  return { type: 'string', maxLength: max, pattern: min <= 1 ? '\\S' : `\\S[\\s\\S]{${min - 2},}\\S` };
}

/**
 * A real calendar day written YYYY-MM-DD, without anchors: the days zod's `z.iso.date()` accepts (a
 * test compares the two on every day of every year), said in fewer bytes: any month's 1st to 28th,
 * the 29th and 30th but in February, the 31st of the long months, and February 29th of leap years.
 */
export const CALENDAR_DAY_PATTERN =
  '\\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)|' +
  '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29';

/** A real calendar day written YYYY-MM-DD (2025-02-29 is refused: one message, never two). */
export function calendarDate() {
  const hint = 'Give a real calendar day written YYYY-MM-DD, e.g. "2026-03-18".';
  const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
  return withHint(
    lenient(trim, z.iso.date({ error: errorFor(hint) }), { json: textForms(CALENDAR_DAY_PATTERN), text: CALENDAR_DAY_PATTERN }),
    hint,
  );
}

export interface ListOptions {
  /** At most this many values. */
  max?: number;
}

/** "high,medium" or "high, medium" → ["high", "medium"]; arrays and other values as given. */
function splitCommas(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.includes(',')
      ? value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== '')
      : value;
  }
  if (Array.isArray(value)) {
    // A REST parameter repeated (`impact=high&impact=low`) or an array whose items hold commas.
    return value.flatMap((item: unknown) => (typeof item === 'string' && item.includes(',') ? (splitCommas(item) as unknown[]) : [item]));
  }
  return value;
}

/**
 * One value or several wherever a list is accepted: a single value, an array, or (on REST) a
 * comma-separated list or the parameter repeated. The result is always an array.
 */
export function list<Item extends z.ZodType>(item: Item, { max = 50 }: ListOptions = {}) {
  const itemHint = hintOf(item)
    .replace(/^Valid values: /, '')
    .replace(/\.$/, '');
  const hint = `Give one or more values${itemHint ? ` (${itemHint})` : ''}: one value, an array, or a comma-separated list (at most ${max}).`;
  const error = errorFor(hint);
  const either = z.union([item, z.array(item, { error }).min(1, { error }).max(max, { error })], { error });
  const asArray = (value: z.output<Item> | z.output<Item>[]): z.output<Item>[] => (Array.isArray(value) ? value : [value]);
  return withHint(lenient(splitCommas, either, { json: listJson(acceptedInputOf(item)) }).transform(asArray), hint);
}

/**
 * What a list accepts: the item's own forms, text of items separated by commas (empty places
 * ignored), or an array of such texts. The count (1 to `max` after splitting) is the server's to
 * check: a pattern cannot count the items of an array's texts together.
 */
function listJson(item: AcceptedInput | undefined): JsonSchema {
  // Items without a text pattern are free text: an array of other values (numbers) is refused, and said so.
  if (!item?.text) return { anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: { type: 'string' } }] };
  const texts: JsonSchema = { type: 'string', pattern: `^(?:\\s*,|\\s*${grouped(item.text)}\\s*(?:,|$))+\\s*$` };
  const branches = (item.json.anyOf as JsonSchema[] | undefined) ?? [item.json];
  // The item's text branch is one of the texts a list takes; its other forms (the canonical enum) stay.
  const others = branches.filter((branch) => !(branch.type === 'string' && typeof branch.pattern === 'string'));
  return { anyOf: [...others, texts, { type: 'array', minItems: 1, items: { anyOf: [...others, texts] } }] };
}
