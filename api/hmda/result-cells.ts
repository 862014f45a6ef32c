// Reads a custom query's result cells as JSON, column vector by column vector, so that a value's
// shape cannot change what the caller gets: a struct field or column named `__proto__` stays a field
// (DuckDB's JavaScript values hold struct fields in plain objects, where that name sets the object's
// prototype instead: the field was dropped, or the struct came back as a string), and a type nested
// deeper than the answer holds is refused before its first row is read (reading a list nested 3,000
// deep overflowed the JavaScript stack: "Maximum call stack size exceeded", a 500).
import {
  DuckDBListVector,
  DuckDBStructVector,
  DuckDBTypeId,
  type DuckDBDataChunk,
  type DuckDBType,
  type DuckDBVector,
} from '@duckdb/node-api';
import type { JsonRow, JsonValue } from './duck.ts';
import { jsonFromDuckDB } from './duck-values.ts';

/** Levels of lists, structs, maps and unions inside each other an answer holds (real data has a few). */
export const MAX_NESTING = 64;

/** The types directly inside `type` (list items, struct fields, map keys and values, union members). */
function innerTypes(type: DuckDBType): readonly DuckDBType[] {
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return [type.valueType];
    case DuckDBTypeId.STRUCT:
      return type.entryTypes;
    case DuckDBTypeId.MAP:
      return [type.keyType, type.valueType];
    case DuckDBTypeId.UNION:
      return type.memberTypes;
    default:
      return [];
  }
}

/** How many container levels `type` has (0 for a plain value); walked without recursion. */
function nestingDepth(type: DuckDBType): number {
  let deepest = 0;
  const stack: [DuckDBType, number][] = [[type, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    const inner = innerTypes(current);
    if (inner.length > 0) deepest = Math.max(deepest, depth + 1);
    // Past the limit the answer is refused anyway: no need to walk the rest.
    if (deepest > MAX_NESTING) return deepest;
    for (const child of inner) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Whether a struct field named `__proto__` holding a plain value (a number, a string) lies inside a
 * map, a fixed-size array or a union: those are read as DuckDB's JavaScript values, where such a field
 * is lost without a trace (object values are recovered), so the answer is refused rather than cut.
 */
function hasUnreadableField(type: DuckDBType, insideValue = false): boolean {
  const reading = insideValue || [DuckDBTypeId.MAP, DuckDBTypeId.ARRAY, DuckDBTypeId.UNION].includes(type.typeId);
  if (type.typeId === DuckDBTypeId.STRUCT && reading) {
    const index = type.entryNames.indexOf('__proto__');
    if (index >= 0 && innerTypes(type.entryTypes[index]!).length === 0) return true;
  }
  return innerTypes(type).some((inner) => hasUnreadableField(inner, reading));
}

/** A column name for a message: the caller's own, when it is short and printable. */
const shown = (name: string) => (name.length <= 64 && !/[\p{Cc}\p{Cf}]/u.test(name) ? `column "${name}"` : 'a column');

/** Why a result with these columns cannot be given as JSON (in the caller's terms), or undefined when it can. */
export function whyUnanswerable(names: readonly string[], types: readonly DuckDBType[]): { reason: string; message: string } | undefined {
  for (const [index, type] of types.entries()) {
    if (nestingDepth(type) > MAX_NESTING)
      return {
        reason: 'nesting',
        message: `Custom SQL could not be answered: ${shown(names[index]!)} nests lists, structs or maps more than ${MAX_NESTING} levels deep, more than an answer holds. Return it as text instead, e.g. CAST(… AS VARCHAR) or to_json(…)::VARCHAR.`,
      };
    if (hasUnreadableField(type))
      return {
        reason: 'proto_field',
        message: `Custom SQL could not be answered: ${shown(names[index]!)} holds a struct with a field named __proto__ inside a map, fixed-size array or union; rename that field (AS another name) or return the value as text with CAST(… AS VARCHAR).`,
      };
  }
  return undefined;
}

/** A JavaScript stack overflow: what reading (or checking) something nested thousands of levels deep ends in. */
export const isStackOverflow = (error: unknown) => error instanceof RangeError && /call stack/i.test(error.message);

/**
 * The answer to a stack overflow: the type check keeps result values shallow, but a value nested deep
 * inside a VARIANT, or a query nested deep in its text, can still overflow while read or checked.
 */
export const TOO_DEEP = {
  reason: 'nesting',
  message: `Custom SQL could not be answered: the query or a value it returns is nested too deeply to be read (an answer holds at most ${MAX_NESTING} levels of lists, structs or maps). Flatten it, or return deep values as text with CAST(… AS VARCHAR).`,
};

/** An object with these own fields, whatever their names (`__proto__` included). */
function fields(entries: [string, JsonValue][]): { [key: string]: JsonValue } {
  return Object.fromEntries(entries);
}

/** The JSON of item `index` of `vector`: structs and lists walked vector by vector, other values converted. */
function cell(vector: DuckDBVector, index: number): JsonValue {
  if (vector instanceof DuckDBStructVector) {
    if (!vector.isItemValid(index)) return null;
    const { entryNames } = vector.type;
    return fields(entryNames.map((name, entry) => [name, cell(vector.entryVectorAt(entry), index)]));
  }
  if (vector instanceof DuckDBListVector) {
    const items = vector.getItemVector(index);
    return items === null ? null : Array.from({ length: items.itemCount }, (_, item) => cell(items, item));
  }
  return jsonFromDuckDB(vector.getItem(index), vector.type);
}

/** The rows of `chunk` one by one, each an object keyed by the result's (deduplicated) column names. */
export function* chunkRows(chunk: DuckDBDataChunk, names: readonly string[]): Generator<JsonRow> {
  const vectors = names.map((_, column) => chunk.getColumnVector(column));
  for (let index = 0; index < chunk.rowCount; index += 1) {
    yield fields(names.map((name, column) => [name, cell(vectors[column]!, index)]));
  }
}
