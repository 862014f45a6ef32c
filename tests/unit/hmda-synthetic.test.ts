// The SYNTHETIC generator: its marginals per state equal the official aggregates times the scale, it
// writes the FFIEC CSV layout, and every row is marked by a SYNTHETIC LEI.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadCalibration } from '../../api/hmda/calibration.ts';
import { LAR_COLUMNS } from '../../api/hmda/schema.ts';
import { LAR_HEADER, quotas, SYNTHETIC_DIMENSIONS, writeSyntheticLar } from '../../api/hmda/synthetic.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';

/** Collects written text. */
function sink(): { out: Writable; text: () => string } {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { out, text: () => chunks.join('') };
}

/** Which CSV column each calibrated dimension lands in. */
const COLUMN_OF: Record<(typeof SYNTHETIC_DIMENSIONS)[number], string> = {
  actionTaken: 'action_taken',
  loanType: 'loan_type',
  loanPurpose: 'loan_purpose',
  lienStatus: 'lien_status',
  race: 'derived_race',
  ethnicity: 'derived_ethnicity',
  sex: 'derived_sex',
  age: 'applicant_age',
};

describe('quotas', () => {
  it('splits a total exactly in proportion, by largest remainder', () => {
    expect(quotas({ a: 1, b: 1, c: 1 }, 10)).toEqual([
      ['a', 4],
      ['b', 3],
      ['c', 3],
    ]);
    expect(quotas({ a: 0, b: 5 }, 3)).toEqual([['b', 3]]);
  });
});

describe.skipIf(!hasSourceData)('calibration from the official aggregates', () => {
  it("places each county's records in its state by the mirror's state codes", () => {
    const { counties } = loadCalibration(SOURCE_DIR, 2023);
    // The 50 states, DC, and the three territories the aggregates hold counties for.
    expect(Object.keys(counties)).toHaveLength(54);
    expect(counties.VT?.map(([fips]) => fips)).toEqual([
      '50001',
      '50003',
      '50005',
      '50007',
      '50009',
      '50011',
      '50013',
      '50015',
      '50017',
      '50019',
      '50021',
      '50023',
      '50025',
      '50027',
    ]);
    expect(counties.DC?.map(([fips]) => fips)).toEqual(['11001']);
    expect(counties.PR?.every(([fips]) => fips.startsWith('72'))).toBe(true);
  });
});

describe.skipIf(!hasSourceData)('synthetic LAR generator', () => {
  it.each([
    ['VT', 2023, 0.1],
    ['DE', 2019, 0.05],
  ])('matches the %s %i aggregates on every calibrated dimension at scale %f', async (state, year, scale) => {
    const calibration = loadCalibration(SOURCE_DIR, year);
    const { out, text } = sink();
    const counts = await writeSyntheticLar(out, {
      year,
      states: [state],
      aggregates: calibration.states,
      counties: calibration.counties,
      scale,
      seed: 11,
    });
    const [header, ...lines] = text().trimEnd().split('\n');
    expect(header).toBe(LAR_HEADER);
    const names = LAR_COLUMNS.map((c) => c.name);
    const rows = lines.map((line) => line.split(','));
    expect(rows).toHaveLength(counts[state] ?? -1);
    expect(
      rows.every(
        (row) => row.length === 99 && row[names.indexOf('lei')]?.startsWith('SYNTHETIC') && row[names.indexOf('state_code')] === state,
      ),
    ).toBe(true);
    const aggregate = calibration.states[state];
    for (const dimension of SYNTHETIC_DIMENSIONS) {
      const official = aggregate?.[dimension] ?? {};
      const index = names.indexOf(COLUMN_OF[dimension]);
      const generated: Record<string, number> = {};
      for (const row of rows) generated[row[index] ?? ''] = (generated[row[index] ?? ''] ?? 0) + 1;
      const dimensionTotal = Object.values(official).reduce((a, b) => a + b, 0);
      for (const [code, count] of Object.entries(official)) {
        const expected = (count * rows.length) / dimensionTotal;
        expect(Math.abs((generated[code] ?? 0) - expected), `${dimension} ${code}`).toBeLessThan(1);
      }
    }
  });

  it('reproduces the official counts exactly at scale 1', async () => {
    const calibration = loadCalibration(SOURCE_DIR, 2022);
    const { out, text } = sink();
    await writeSyntheticLar(out, { year: 2022, states: ['WY'], aggregates: calibration.states, scale: 1 });
    const action = LAR_COLUMNS.findIndex((c) => c.name === 'action_taken');
    const generated: Record<string, number> = {};
    for (const line of text().trimEnd().split('\n').slice(1)) {
      const code = line.split(',')[action] ?? '';
      generated[code] = (generated[code] ?? 0) + 1;
    }
    expect(generated).toEqual(calibration.states.WY?.actionTaken);
  });
});
