// How a pg_dump data-only dump is cut into the COPY blocks tests/support/pglite-copy.ts feeds to
// PGlite (the shared synced template's copy): every table's rows byte for byte, empty tables kept
// (to be emptied), escaped backslashes and a row that looks like the end marker's start left alone.
import { describe, expect, it } from 'vitest';
import { parseDataDump } from '../support/pglite-copy.ts';

const DUMP = [
  '--',
  '-- PostgreSQL database dump',
  '--',
  "SET client_encoding = 'UTF8';",
  "SELECT pg_catalog.set_config('search_path', '', false);",
  '',
  'COPY public.accounts (id, email) FROM stdin;',
  '\\.',
  '',
  '',
  'COPY public.bills (id, title, note) FROM stdin;',
  '1\tA bill\t\\N',
  '2\tC:\\\\path\\tand a tab\t\\\\.',
  '\\.x\tstarts like the end\t-',
  '\\.',
  '',
  "SELECT pg_catalog.setval('public.accounts_id_seq', 1, false);",
  "SELECT pg_catalog.setval('public.sync_runs_id_seq', 14, true);",
  '',
].join('\n');

describe('parseDataDump', () => {
  it('keeps each table with its exact rows, empty ones included, and the sequence positions', () => {
    const { blocks, sequences } = parseDataDump(DUMP);
    expect(blocks.map((block) => block.table)).toEqual(['public.accounts', 'public.bills']);
    expect(blocks[0]).toEqual({ target: 'public.accounts (id, email)', table: 'public.accounts', rows: '' });
    expect(blocks[1]!.rows).toBe('1\tA bill\t\\N\n2\tC:\\\\path\\tand a tab\t\\\\.\n\\.x\tstarts like the end\t-\n');
    expect(sequences).toEqual([
      "SELECT pg_catalog.setval('public.accounts_id_seq', 1, false);",
      "SELECT pg_catalog.setval('public.sync_runs_id_seq', 14, true);",
    ]);
  });

  it('refuses a dump cut off inside a table', () => {
    expect(() => parseDataDump('COPY public.bills (id) FROM stdin;\n1\n2\n')).toThrow(/inside the rows of public.bills/);
  });
});
