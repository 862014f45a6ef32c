// The catalogue of measures as data (data/catalogue/measures.yaml): it loads and fits its schema, a
// bad entry fails naming where, every count the official HMDA state and county files carry has a
// measure (and a share), and words rank the intended measure first without any data loaded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_FILE, readCatalogue } from '../../api/catalogue/measures.ts';
import { indexTemplates, rankTemplates } from '../../api/catalogue/ranking.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

const catalogue = readCatalogue();

function doctored(edit: (text: string) => string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-'));
  const file = path.join(folder, 'measures.yaml');
  fs.writeFileSync(file, edit(fs.readFileSync(CATALOGUE_FILE, 'utf8')));
  return file;
}

describe('the catalogue file', () => {
  it('holds every family of measures once, each with words and the places it exists for', () => {
    const ids = catalogue.templates.map((template) => template.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      'pmms/30-year',
      'optimal-blue/conforming-30-year/ltv-le-80/fico-720-739',
      'nmdb/{state}/government/pct_intrate_ge_6_dollar',
    ])
      expect(ids).toContain(id);
    for (const id of [
      'loan-limits/conforming/{county}/3-unit',
      'loan-limits/fha/baseline'.replace('baseline', 'floor'),
      'population/{place}',
    ])
      expect(ids).toContain(id);
    for (const id of ['hmda/{place}/records', 'hmda/{place}/va_share', 'hmda/{place}/female_records', 'hmda/{place}/age_under_25_share'])
      expect(ids).toContain(id);
    for (const template of catalogue.templates) {
      expect(template.words.length, template.id).toBeGreaterThan(0);
      expect(template.places.length, template.id).toBeGreaterThan(0);
    }
    const share = catalogue.templates.find((template) => template.id === 'hmda/{place}/va_share');
    expect(share).toMatchObject({
      kind: 'share',
      unit: 'percent',
      share: { part: 'hmda/{place}/va_records', whole: 'hmda/{place}/records' },
    });
  });

  it('refuses an entry that does not fit, naming where it is', () => {
    const badKind = doctored((text) => text.replace('kind: limit', 'kind: speed'));
    expect(() => readCatalogue(badKind)).toThrow(/limits\.\d+\.kind/);
    const twice = doctored((text) => text.replace('- id: pmms/15-year', '- id: pmms/30-year'));
    expect(() => readCatalogue(twice)).toThrow(/pmms\/30-year is declared twice/);
    const noSlot = doctored((text) => text.replace('- id: population/{place}', '- id: population/all'));
    expect(() => readCatalogue(noSlot)).toThrow(/population\/all exists for state, county but has no place slot/);
  });
});

describe.skipIf(!hasSourceData)('the HMDA measures against the official aggregate files', () => {
  it('has a count and a share of records for every dimension and code the state and county files carry', () => {
    const seen = new Set<string>();
    for (const level of ['state', 'county'])
      for (let year = 2018; year <= 2025; year += 1) {
        const file = sourceFile('hmda', 'aggregates', `by_${level}_${year}.json`);
        const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, Record<string, number>>>;
        for (const dimensions of Object.values(data))
          for (const [dimension, codes] of Object.entries(dimensions))
            for (const code of Object.keys(codes)) seen.add(`${dimension}|${code}`);
      }
    const counted = new Map<string, string>();
    for (const measure of catalogue.hmda.values())
      if (measure.formula.kind === 'count' && measure.formula.rule.codes?.length === 1)
        counted.set(`${measure.formula.rule.dimension}|${measure.formula.rule.codes[0]}`, measure.key);
    const missing = [...seen].filter((code) => !counted.has(code));
    expect(missing).toEqual([]);
    for (const key of counted.values()) {
      const share = key.endsWith('_records') ? key.replace(/_records$/, '_share') : `${key}_share`;
      expect(catalogue.hmda.get(share)?.formula.kind, share).toBe('ratio');
    }
    expect(seen.size).toBeGreaterThan(70);
  });
});

describe('ranking words against the measures (no places, no data)', () => {
  const index = indexTemplates(catalogue.templates);
  const first = (text: string) => rankTemplates(text, index).ranked[0]?.template.id;

  it.each([
    ['VA share', 'hmda/{place}/va_share'],
    ['denial rate', 'hmda/{place}/denial_rate'],
    ['outstanding mortgages above 6%', 'nmdb/{state}/pct_intrate_ge_6'],
    ['15-year fixed rate', 'pmms/15-year'],
    ['cash-out refis share', 'hmda/{place}/cash_out_refinance_share'],
    ['conforming loan limit for a duplex', 'loan-limits/conforming/{county}/2-unit'],
    ['Optimal Blue jumbo rate', 'optimal-blue/jumbo-30-year'],
    ['applications withdrawn by the applicant', 'hmda/{place}/withdrawn_records'],
  ])('"%s" → %s', (text, id) => {
    expect(first(text)).toBe(id);
  });

  it('says which words no measure uses, and hands back the times', () => {
    const ranking = rankTemplates('Rocket Mortgage originations in 2023', index);
    expect(ranking.ranked[0]?.template.id).toBe('hmda/{place}/originations');
    expect(ranking.unmatched).toEqual(['rocket']);
    expect(ranking.times).toEqual(['2023']);
  });
});
