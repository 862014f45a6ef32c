// The sync framework's pure parts: delimited parsing, dependency planning, option parsing, source
// reading from a mirror, the business-day schedule and the summary table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextBusinessDayRun } from '../../api/sync/background.ts';
import { formatSummary, parseArguments } from '../../api/sync/console.ts';
import { eachDelimitedRecord, parseDelimited, type DelimitedRecord } from '../../api/sync/delimited.ts';
import { SourceUnavailableError } from '../../api/sync/errors.ts';
import { planSync, SyncPlanError, yearsOption } from '../../api/sync/runner.ts';
import { combineChecksums, createSourceReader, sha256 } from '../../api/sync/source.ts';
import type { DatasetDefinition } from '../../api/sync/types.ts';

const dataset = (name: string, dependsOn: string[] = [], syncByDefault = true): DatasetDefinition => ({
  name,
  description: name,
  dependsOn,
  syncByDefault,
  load: () => Promise.reject(new Error('not run')),
});

describe('parseDelimited', () => {
  it('drops a BOM, handles CRLF, skips blank and all-empty lines, keeps quoted delimiters', () => {
    const records = parseDelimited('\uFEFFa,b\r\n"x, y",2\r\n\r\n,,\r\n"say ""hi""",3\r\n', ',', 'f.csv');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', '2'] },
      { line: 5, fields: ['say "hi"', '3'] },
    ]);
  });

  it('reports an unterminated quote with its line', () => {
    expect(() => parseDelimited('a|b\n"open|1\n', '|', 'f.txt')).toThrow(/f\.txt:2: unterminated quoted field/);
    expect(() => parseDelimited('a,b\n\n1,2\n\n"open,3\nmore\nmore\n', ',', 'f.csv')).toThrow(/f\.csv:5: unterminated quoted field/);
  });

  it('numbers a record by its first line across quoted line breaks and mixed endings, keeps stray quotes and ragged rows', () => {
    const records = parseDelimited('a,"two\r\nlines",c\r\nx"y,2\n  ,\r3,4,5\r\n', ',', 'f.csv');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'two\r\nlines', 'c'] },
      { line: 3, fields: ['x"y', '2'] },
      { line: 5, fields: ['3', '4', '5'] },
    ]);
  });
});

describe('eachDelimitedRecord', () => {
  it('hands over the records parseDelimited returns, from bytes that start with a BOM', () => {
    const text = '\uFEFFa,b\r\n"x, y",2\r\n\r\n,,\r\n"say ""hi""",3\r\n';
    const seen: DelimitedRecord[] = [];
    eachDelimitedRecord(Buffer.from(text, 'utf8'), ',', 'f.csv', (record) => seen.push(record));
    expect(seen).toEqual(parseDelimited(text, ',', 'f.csv'));
  });

  it("lets the reader's own error through as thrown, and stops there", () => {
    const seen: number[] = [];
    const refuse = ({ line }: DelimitedRecord) => {
      seen.push(line);
      if (line === 2) throw new RangeError('row 2 is out of range');
    };
    expect(() => eachDelimitedRecord(Buffer.from('a\nb\nc\n'), ',', 'f.csv', refuse)).toThrow(RangeError);
    expect(seen).toEqual([1, 2]);
  });
});

describe('planSync', () => {
  const definitions = [dataset('b', ['a']), dataset('a'), dataset('hmda', [], false), dataset('c', ['b'])];

  it('orders dependencies first and leaves out non-default datasets', () => {
    expect(planSync(definitions).map((d) => d.name)).toEqual(['a', 'b', 'c']);
    expect(planSync(definitions, { all: true }).map((d) => d.name)).toEqual(['a', 'b', 'hmda', 'c']);
  });

  it('adds missing dependencies of a named dataset, not loaded ones', () => {
    expect(planSync(definitions, { names: ['c'] }).map((d) => d.name)).toEqual(['a', 'b', 'c']);
    expect(planSync(definitions, { names: ['c'], loaded: new Set(['a', 'b']) }).map((d) => d.name)).toEqual(['c']);
  });

  it('refuses unknown names (listing the known ones) and cycles', () => {
    expect(() => planSync(definitions, { names: ['nope'] })).toThrow(/Unknown dataset "nope". Known datasets: a, b, c, hmda/);
    expect(() => planSync([dataset('x', ['y']), dataset('y', ['x'])])).toThrow(SyncPlanError);
  });
});

describe('command-line options', () => {
  it('parses names, --flag value, --flag=value and --all', () => {
    expect(parseArguments(['pmms', '--years', '2024,2025', '--states=CO,TX', '--all'])).toEqual({
      names: ['pmms'],
      options: { years: '2024,2025', states: 'CO,TX', all: true },
      help: false,
    });
  });

  it('expands year lists and ranges and rejects junk', () => {
    expect(yearsOption({ years: '2018-2020,2025' })).toEqual([2018, 2019, 2020, 2025]);
    expect(yearsOption({})).toBeUndefined();
    expect(() => yearsOption({ years: '20x5' })).toThrow(/--years/);
  });
});

describe('source reader', () => {
  it('reads a mirror file with its checksum and names the missing path', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-src-'));
    try {
      fs.mkdirSync(path.join(dir, 'x'));
      fs.writeFileSync(path.join(dir, 'x', 'a.csv'), 'hello');
      const reader = createSourceReader({ sourceDir: dir });
      const entry = { id: 'a', publisherUrl: 'https://example.gov/a.csv', format: 'csv', mirrorPath: 'x/a.csv' };
      const file = await reader.readSource(entry);
      expect(file.checksum).toBe(sha256('hello'));
      expect(file.origin).toBe(path.join(dir, 'x', 'a.csv'));
      const missing = { ...entry, id: 'b', mirrorPath: 'x/b.csv' };
      await expect(reader.readSource(missing)).rejects.toThrow(new RegExp(`${path.join(dir, 'x', 'b.csv')}: file not found`));
      await expect(reader.readOptionalSource(missing)).resolves.toBeUndefined();
      await expect(reader.readSource({ ...entry, mirrorPath: '../../etc/passwd' })).rejects.toThrow(SourceUnavailableError);
      expect(combineChecksums([file])).toBe(file.checksum);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('downloads from the publisher without a mirror and reports HTTP failures', async () => {
    const fakeFetch = (async (url: string | URL | Request) =>
      String(url).endsWith('ok') ? new Response('data') : new Response('no', { status: 500 })) as typeof fetch;
    const reader = createSourceReader({ sourceDir: undefined, fetch: fakeFetch });
    const file = await reader.readSource({ id: 'o', publisherUrl: 'https://example.gov/ok', format: 'csv', mirrorPath: 'o' });
    expect(file.bytes.toString()).toBe('data');
    await expect(reader.readSource({ id: 'e', publisherUrl: 'https://example.gov/err', format: 'csv', mirrorPath: 'e' })).rejects.toThrow(
      /HTTP 500/,
    );
  });
});

describe('business-day schedule', () => {
  it('runs at 06:30 on the next Monday to Friday', () => {
    const friday = new Date(2026, 10, 20, 7, 0); // after Friday's run
    expect(nextBusinessDayRun(friday)).toEqual(new Date(2026, 10, 23, 6, 30));
    const tuesdayEarly = new Date(2026, 10, 17, 5, 0);
    expect(nextBusinessDayRun(tuesdayEarly)).toEqual(new Date(2026, 10, 17, 6, 30));
  });
});

describe('summary table', () => {
  it('lists dataset, status, rows, changed, as-of, seconds and message', () => {
    const table = formatSummary([
      { name: 'counties', status: 'ok', rows: 3245, changed: 0, asOf: '2026-11-22', sourceUrl: 'u', seconds: 0.31, message: '' },
      {
        name: 'loan_limits_fha',
        status: 'failed',
        rows: undefined,
        changed: undefined,
        asOf: undefined,
        sourceUrl: undefined,
        seconds: 0.1,
        message: 'f.csv:3: bad',
      },
    ]);
    expect(table.split('\n')[0]).toMatch(/^dataset\s+status\s+rows\s+changed\s+as-of\s+seconds\s+message$/);
    expect(table).toMatch(/loan_limits_fha\s+failed\s+0\.1\s+f\.csv:3: bad/);
  });
});
