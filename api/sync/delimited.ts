// Splits delimited text (CSV, pipe-delimited) into numbered records, tolerating the drift official
// files show: a UTF-8 BOM, CRLF or LF endings, blank lines (skipped), quoted fields with embedded
// delimiters or quotes. Line numbers are 1-based file lines, for error messages.
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

/** Every non-blank record of `text`; `file` names the source in errors (unterminated quote). */
export function parseDelimited(text: string, delimiter: string, file: string): DelimitedRecord[] {
  const records: DelimitedRecord[] = [];
  const source = decodeText(text);
  let line = 1;
  let position = 0;
  while (position < source.length) {
    const startLine = line;
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let endOfRecord = false;
    while (position < source.length && !endOfRecord) {
      const char = source[position] as string;
      if (quoted) {
        if (char === '"') {
          if (source[position + 1] === '"') {
            field += '"';
            position += 1;
          } else quoted = false;
        } else {
          if (char === '\n') line += 1;
          field += char;
        }
      } else if (char === '"' && field === '') {
        quoted = true;
      } else if (char === delimiter) {
        fields.push(field);
        field = '';
      } else if (char === '\n' || char === '\r') {
        if (char === '\r' && source[position + 1] === '\n') position += 1;
        line += 1;
        endOfRecord = true;
      } else {
        field += char;
      }
      position += 1;
    }
    if (quoted) throw new SourceFormatError(file, startLine, 'unterminated quoted field');
    fields.push(field);
    // A blank line, or one of only delimiters (`,,,,` closes some spreadsheet exports): no record.
    if (fields.every((value) => value.trim() === '')) continue;
    records.push({ line: startLine, fields });
  }
  return records;
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
