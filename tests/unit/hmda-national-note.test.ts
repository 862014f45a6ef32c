// The note every national HMDA series carries says where the sum of the state keys equals the
// published national record count and where it does not: the Data Browser's 2018 and 2019 counts
// hold records under a blank state key that no aggregate breaks down. Checked against its files.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from '../../api/hmda-aggregates/labels.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

describe.skipIf(!hasSourceData)('the national HMDA note', () => {
  it("claims equality with the published count only for the years it holds, and names the others' blank-key records", () => {
    const dir = sourceFile('hmda', 'aggregates', 'record_counts');
    const blank: Record<number, number> = {};
    for (const file of fs.readdirSync(dir).filter((name) => /^stateCounts\d{4}\.json$/.test(name))) {
      const counts = JSON.parse(fs.readFileSync(`${dir}/${file}`, 'utf8')) as Record<string, number>;
      const year = Number(file.slice('stateCounts'.length, -'.json'.length));
      const records = counts['""'] ?? counts[''] ?? 0;
      if (records > 0) blank[year] = records;
    }
    expect(Object.keys(blank).map(Number).sort()).toEqual([2018, 2019]);
    for (const [year, records] of Object.entries(blank))
      expect(DEFINITIONS.nation).toContain(`${records.toLocaleString('en-US')} in ${year}`);
    expect(DEFINITIONS.nation).not.toMatch(/so they equal/);
    expect(DEFINITIONS.nation).toMatch(/From 2020 on that is the published national record count/);
  });
});
