// Splits delimited text (CSV, pipe-delimited) into numbered records with csv-parse, tolerating the
// drift official files show: a UTF-8 BOM, CRLF, LF or CR endings (mixed too), blank lines and lines
// of only delimiters (skipped), quoted fields with embedded delimiters, quotes or line breaks, a
// stray quote inside an unquoted field (kept as a character), rows of differing lengths. Line numbers
// are 1-based file lines of each record's first line, for error messages.
import { CsvError, parse } from 'csv-parse/sync';
import { SourceFormatError } from './errors.ts';

export interface DelimitedRecord {
  /** 1-based line number of the record's first line in the file. */
  line: number;
  fields: string[];
}

export function decodeText(bytes: Buffer | string): string {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Follows 1-based file lines through the bytes csv-parse has consumed (its own `lines` counts a CRLF
 * inside a quoted field as two lines, which would shift every later record's number).
 */
function lineTracker(bytes: Buffer) {
  let offset = 0;
  let line = 1;
  const passTo = (end: number): void => {
    for (; offset < end; offset += 1) {
      const byte = bytes[offset];
      if (byte === LF || (byte === CR && bytes[offset + 1] !== LF)) line += 1;
    }
  };
  const skipBlankLines = (end: number): void => {
    while (offset < end && (bytes[offset] === LF || bytes[offset] === CR)) passTo(offset + 1);
  };
  return {
    /** The line of the record that ends at byte `end` (blank lines before it skipped); moves past it. */
    record(end: number): number {
      skipBlankLines(end);
      const start = line;
      passTo(end);
      return start;
    },
    /** The line where the next record starts: one that never ended (an unterminated quote). */
    next(): number {
      skipBlankLines(bytes.length);
      return line;
    },
  };
}

/** Every non-blank record of `text`; `file` names the source in errors (unterminated quote). */
export function parseDelimited(text: string, delimiter: string, file: string): DelimitedRecord[] {
  const records: DelimitedRecord[] = [];
  eachDelimitedRecord(Buffer.from(decodeText(text), 'utf8'), delimiter, file, (record) => {
    records.push(record);
  });
  return records;
}

const BOM = [0xef, 0xbb, 0xbf];

/**
 * Hands each non-blank record of UTF-8 `bytes` to `visit` as it is read, keeping none: for a file
 * too large to hold as records (FHFA's 37.7 MB NMDB CSV), whose reader keeps a few rows of many.
 */
export function eachDelimitedRecord(bytes: Buffer, delimiter: string, file: string, visit: (record: DelimitedRecord) => void): void {
  const text = BOM.every((byte, index) => bytes[index] === byte) ? bytes.subarray(BOM.length) : bytes;
  const lines = lineTracker(text);
  try {
    parse(text, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        const line = lines.record(context.bytes);
        // A line of only delimiters (`,,,,` closes some spreadsheet exports) or spaces: no record.
        if (!record.every((value) => value.trim() === '')) visit({ line, fields: record });
        return null;
      },
    });
  } catch (error) {
    // What `visit` threw goes on as thrown; csv-parse's own errors are the file's, said with its line.
    if (!(error instanceof CsvError)) throw error;
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') throw new SourceFormatError(file, lines.next(), 'unterminated quoted field');
    throw new SourceFormatError(file, lines.next(), error.message);
  }
}

/** Lower-cases a header cell and drops spaces, dashes and underscores: `One-Unit Limit` → `oneunitlimit`. */
export function headerKey(cell: string): string {
  return cell.toLowerCase().replace(/[\s\-_]+/g, '');
}

/**
 * Maps required header names (compared with headerKey) to column indexes; throws a
 * SourceFormatError naming the missing columns and what the header holds.
 */
export function columnIndexes<Name extends string>(
  header: DelimitedRecord,
  wanted: Record<Name, readonly string[]>,
  file: string,
): Record<Name, number> {
  const keys = header.fields.map(headerKey);
  const result = {} as Record<Name, number>;
  const missing: string[] = [];
  for (const [name, aliases] of Object.entries(wanted) as [Name, readonly string[]][]) {
    const index = keys.findIndex((key) => aliases.some((alias) => headerKey(alias) === key));
    if (index < 0) missing.push(aliases[0] ?? name);
    else result[name] = index;
  }
  if (missing.length > 0) {
    throw new SourceFormatError(file, header.line, `header lacks ${missing.join(', ')} (found: ${header.fields.join(', ')})`);
  }
  return result;
}
