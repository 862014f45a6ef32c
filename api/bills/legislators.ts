// The unitedstates/congress-legislators tables (current and historical members): bioguide id to
// name, party and state, so sponsors and cosponsors carry a readable name even when a record only
// has the clerk's "Rep. Last, First [P-ST-1]" form, and 117th-Congress members who left still resolve.
import { parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError } from '../sync/errors.ts';

export interface Legislator {
  bioguideId: string;
  name: string;
  party: string | null;
  state: string | null;
  chamber: 'House' | 'Senate' | null;
}

export type LegislatorIndex = Map<string, Legislator>;

const PARTY_NAMES: Record<string, string> = {
  D: 'Democrat',
  R: 'Republican',
  I: 'Independent',
  ID: 'Independent Democrat',
  L: 'Libertarian',
};

/** "Democrat" for "D"; the code itself when unknown. */
export function partyName(code: string | null): string | null {
  if (code === null) return null;
  return PARTY_NAMES[code.toUpperCase()] ?? code;
}

/** The CSV's non-blank rows (csv-parse, through the sync's delimited reader): quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string, file: string): string[][] {
  return parseDelimited(text, ',', file).map((record) => record.fields);
}

/** Adds the members of one legislators CSV to the index (later files do not overwrite earlier ones). */
export function addLegislators(index: LegislatorIndex, csv: string, file: string): number {
  const [header, ...rows] = parseCsv(csv, file);
  if (!header) throw new SourceFormatError(file, 1, 'empty file');
  const column = (name: string): number => {
    const at = header.indexOf(name);
    if (at < 0) throw new SourceFormatError(file, 1, `missing column "${name}"`);
    return at;
  };
  const [bioguide, fullName, first, last, party, state, type] = [
    column('bioguide_id'),
    column('full_name'),
    column('first_name'),
    column('last_name'),
    column('party'),
    column('state'),
    column('type'),
  ];
  let added = 0;
  for (const row of rows) {
    const id = row[bioguide]?.trim();
    if (!id || index.has(id)) continue;
    const name = row[fullName]?.trim() || [row[first], row[last]].filter(Boolean).join(' ').trim();
    const chamber = row[type] === 'sen' ? 'Senate' : row[type] === 'rep' ? 'House' : null;
    index.set(id, { bioguideId: id, name, party: row[party]?.trim() || null, state: row[state]?.trim() || null, chamber });
    added += 1;
  }
  return added;
}
