// Turns any value a custom SQL query returns into JSON without throwing. DuckDB's own JavaScript
// conversion throws on dates and timestamps a JavaScript Date cannot hold ('infinity', year 290000,
// far BC) and reads 'infinity'::TIMESTAMP_NS as a date in 2262; here those become strings:
// 'infinity', '-infinity', or an ISO 8601 date with an extended year ('+290000-01-01T00:00:00.000Z').
// Floating-point NaN and infinities, which JSON has no number for (JSON.stringify writes null, the
// same as SQL NULL), become the strings 'NaN', 'Infinity' and '-Infinity'. Struct fields are read by
// the type's field names, so a field named `__proto__` or `constructor` is a field like any other.
import {
  DuckDBDateValue,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  JSDuckDBValueConverter,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBValueConverter,
} from '@duckdb/node-api';
import { toJsonValue, type JsonValue } from './duck.ts';

/** Milliseconds from the epoch a JavaScript Date can hold (±100,000,000 days). */
const DATE_RANGE_MS = 8_640_000_000_000_000n;
const MS_PER_DAY = 86_400_000n;

/** A bigint division that rounds toward minus infinity (BigInt's `/` rounds toward zero). */
function floorDiv(value: bigint, divisor: bigint): bigint {
  const quotient = value / divisor;
  return value % divisor !== 0n && value < 0n !== divisor < 0n ? quotient - 1n : quotient;
}

/** Proleptic Gregorian year, month, day of a day count from 1970-01-01 (H. Hinnant's civil_from_days). */
function civilFromDays(days: bigint): { year: bigint; month: number; day: number } {
  const z = days + 719_468n;
  const era = floorDiv(z, 146_097n);
  const dayOfEra = z - era * 146_097n;
  const yearOfEra = (dayOfEra - dayOfEra / 1_460n + dayOfEra / 36_524n - dayOfEra / 146_096n) / 365n;
  const dayOfYear = dayOfEra - (365n * yearOfEra + yearOfEra / 4n - yearOfEra / 100n);
  const monthIndex = (5n * dayOfYear + 2n) / 153n;
  const day = Number(dayOfYear - (153n * monthIndex + 2n) / 5n + 1n);
  const month = Number(monthIndex < 10n ? monthIndex + 3n : monthIndex - 9n);
  return { year: yearOfEra + era * 400n + (month <= 2 ? 1n : 0n), month, day };
}

const pad = (value: number | bigint, width: number) => String(value).padStart(width, '0');

/** The ISO 8601 form Date#toISOString gives, for any millisecond count (years past ±9999 signed, at least six digits). */
export function isoFromEpochMillis(millis: bigint): string {
  if (millis >= -DATE_RANGE_MS && millis <= DATE_RANGE_MS) return new Date(Number(millis)).toISOString();
  const days = floorDiv(millis, MS_PER_DAY);
  const inDay = Number(millis - days * MS_PER_DAY);
  const { year, month, day } = civilFromDays(days);
  const absolute = year < 0n ? -year : year;
  const yearText = year >= 0n && year <= 9999n ? pad(year, 4) : `${year < 0n ? '-' : '+'}${pad(absolute, 6)}`;
  const time = `${pad(Math.floor(inDay / 3_600_000), 2)}:${pad(Math.floor(inDay / 60_000) % 60, 2)}:${pad(Math.floor(inDay / 1000) % 60, 2)}.${pad(inDay % 1000, 3)}`;
  return `${yearText}-${pad(month, 2)}-${pad(day, 2)}T${time}Z`;
}

/** 'infinity', '-infinity', or the ISO form of a count of the type's units (`toMillis` converts them). */
function timestampText(units: bigint, positive: bigint, negative: bigint, toMillis: (units: bigint) => bigint): string {
  if (units === positive) return 'infinity';
  if (units === negative) return '-infinity';
  return isoFromEpochMillis(toMillis(units));
}

/** A date or timestamp as an ISO string or ±infinity; undefined for every other type. */
function temporalText(value: DuckDBValue, type: DuckDBType): string | undefined {
  switch (type.typeId) {
    case DuckDBTypeId.DATE: {
      const { days } = value as DuckDBDateValue;
      return timestampText(
        BigInt(days),
        BigInt(DuckDBDateValue.PosInf.days),
        BigInt(DuckDBDateValue.NegInf.days),
        (count) => count * MS_PER_DAY,
      );
    }
    // WITH TIME ZONE holds UTC microseconds, its infinities those of a plain TIMESTAMP.
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return timestampText(
        (value as DuckDBTimestampValue | DuckDBTimestampTZValue).micros,
        DuckDBTimestampValue.PosInf.micros,
        DuckDBTimestampValue.NegInf.micros,
        (count) => floorDiv(count, 1000n),
      );
    case DuckDBTypeId.TIMESTAMP_NS: {
      const { PosInf, NegInf } = DuckDBTimestampNanosecondsValue;
      return timestampText((value as DuckDBTimestampNanosecondsValue).nanos, PosInf.nanos, NegInf.nanos, (count) =>
        floorDiv(count, 1_000_000n),
      );
    }
    case DuckDBTypeId.TIMESTAMP_MS: {
      const { PosInf, NegInf } = DuckDBTimestampMillisecondsValue;
      return timestampText((value as DuckDBTimestampMillisecondsValue).millis, PosInf.millis, NegInf.millis, (count) => count);
    }
    case DuckDBTypeId.TIMESTAMP_S: {
      const { PosInf, NegInf } = DuckDBTimestampSecondsValue;
      return timestampText((value as DuckDBTimestampSecondsValue).seconds, PosInf.seconds, NegInf.seconds, (count) => count * 1000n);
    }
    default:
      return undefined;
  }
}

/** The JSON text of a floating-point value JSON has no number for; undefined for a finite one. */
export function nonFiniteText(value: number): 'NaN' | 'Infinity' | '-Infinity' | undefined {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  return undefined;
}

/**
 * A struct's fields by the type's names. DuckDB builds a struct value's fields in a plain object,
 * where a field named `__proto__` set the object's prototype instead: an object value is found there.
 */
function structFields(value: DuckDBStructValue, type: DuckDBType & { typeId: DuckDBTypeId.STRUCT }, nested: DuckDBValueConverter<unknown>) {
  const prototype: unknown = Object.getPrototypeOf(value.entries);
  return Object.fromEntries(
    type.entryNames.map((name, index) => {
      const field = name === '__proto__' ? (prototype === Object.prototype ? null : prototype) : value.entries[name];
      return [name, field === null || field === undefined ? null : nested(field as DuckDBValue, type.entryTypes[index]!, nested)];
    }),
  );
}

/** DuckDB's JavaScript conversion, with dates, timestamps, non-finite floats and structs (nested ones too) read as above. */
const converter: DuckDBValueConverter<unknown> = (value, type, nested) => {
  if ((type.typeId === DuckDBTypeId.DOUBLE || type.typeId === DuckDBTypeId.FLOAT) && typeof value === 'number')
    return nonFiniteText(value) ?? value;
  if (type.typeId === DuckDBTypeId.STRUCT && value instanceof DuckDBStructValue) return structFields(value, type, nested);
  return temporalText(value, type) ?? JSDuckDBValueConverter(value as never, type, nested as never);
};

/** The JSON form of one result value; never throws (a value no rule covers is given as DuckDB prints it). */
export function jsonFromDuckDB(value: unknown, type: DuckDBType | undefined): JsonValue {
  if (value === null || value === undefined || type === undefined) return toJsonValue(value);
  try {
    return toJsonValue(converter(value as DuckDBValue, type, converter));
  } catch {
    return String(value);
  }
}
