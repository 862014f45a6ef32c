// The lenient input vocabulary shared by every face (REST query strings, MCP arguments, /ask, pages):
// what a person or an agent naturally writes is accepted, and what is not gets one message that
// names the parameter and says what is valid. Each helper keeps its JSON Schema exact (enums stay
// enums, integers stay integers): normalising happens in `z.preprocess`, whose input side JSON
// Schema skips, never in a `.transform().pipe()`, whose input side it would print as a bare string.
import { z } from 'zod';
import { listValues, valueMessage } from './messages.ts';

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

/** "In Committee", "in-committee", " IN_COMMITTEE " → `in_committee`. */
export function choiceKey(value: string): string {
  return value.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

export interface ChoiceOptions<T extends string> {
  /** Other spellings (any case, spaces or hyphens for underscores) and the value each means. */
  aliases?: Readonly<Record<string, T>>;
  /** Replaces the default "Valid values: …" sentence. */
  hint?: string;
}

/** One of `values`, in any case, trimmed, with spaces or hyphens for underscores, or an alias. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, options: ChoiceOptions<T[number]> = {}) {
  const byKey = new Map<string, T[number]>();
  for (const value of values) byKey.set(choiceKey(value), value);
  for (const [alias, value] of Object.entries(options.aliases ?? {})) byKey.set(choiceKey(alias), value);
  const hint = options.hint ?? `Valid values: ${listValues(values)}.`;
  // A value not recognised is passed on unchanged, so the message shows what the caller wrote.
  const normalise = (value: unknown) => (typeof value === 'string' ? (byKey.get(choiceKey(value)) ?? value) : value);
  return withHint(z.preprocess(normalise, z.enum(values, { error: errorFor(hint) })), hint);
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
  return withHint(z.preprocess(numericText(INTEGER_TEXT), z.int({ error }).min(min, { error }).max(max, { error })), hint);
}

/** A number from `min` to `max`, given as a number or as text ("4.5"). */
export function decimal({ min, max, hint = `Give a number from ${min} to ${max}.` }: RangeOptions) {
  const error = errorFor(hint);
  return withHint(z.preprocess(numericText(DECIMAL_TEXT), z.number({ error }).min(min, { error }).max(max, { error })), hint);
}

export interface TextOptions {
  min?: number;
  max: number;
  /** An example that fits, quoted in the message. */
  example?: string;
}

/** Free text, trimmed, of `min` (default 1) to `max` characters. */
export function text({ min = 1, max, example }: TextOptions) {
  const hint = `Give ${min <= 1 ? 'up' : `${min} up`} to ${max} characters${example ? `, e.g. "${example}"` : ''}.`;
  const error = errorFor(hint);
  const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
  return withHint(z.preprocess(trim, z.string({ error }).min(min, { error }).max(max, { error })), hint);
}

/** A real calendar day written YYYY-MM-DD (2025-02-29 is refused: one message, never two). */
export function calendarDate() {
  const hint = 'Give a real calendar day written YYYY-MM-DD, e.g. "2026-03-18".';
  const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
  return withHint(z.preprocess(trim, z.iso.date({ error: errorFor(hint) })), hint);
}

export interface ListOptions {
  /** At most this many values. */
  max?: number;
}

/** "high,medium" or "high, medium" → ["high", "medium"]; arrays and other values as given. */
function splitCommas(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.includes(',') ? value.split(',').map((part) => part.trim()).filter((part) => part !== '') : value;
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
  const itemHint = hintOf(item).replace(/^Valid values: /, '').replace(/\.$/, '');
  const hint = `Give one or more values${itemHint ? ` (${itemHint})` : ''}: one value, an array, or a comma-separated list (at most ${max}).`;
  const error = errorFor(hint);
  const either = z.union([item, z.array(item, { error }).min(1, { error }).max(max, { error })], { error });
  const asArray = (value: z.output<Item> | z.output<Item>[]): z.output<Item>[] => (Array.isArray(value) ? value : [value]);
  return withHint(z.preprocess(splitCommas, either).transform(asArray), hint);
}
