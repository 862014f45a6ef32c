// The nmdb dataset on the publisher's real zip: every state × market × quarter rate figure the
// service answers equals the mirror's DERIVED CSV (read here with a reader of the test's own), the
// as-of date is the end of the latest quarter, a second sync changes nothing, and a zip that is cut
// short or lacks a state fails the dataset while the earlier load stays served.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNmdbService } from '../../api/nmdb/service.ts';
import { createDatasetStatus } from '../../api/platform/datasets.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { hasSourceData, SOURCE_DIR, sourceFile } from '../support/source-data.ts';
import { syncInto } from '../support/synced.ts';

const ZIP = 'rates/state_nmdb/nmdb-outstanding-mortgage-statistics-states-quarterly.zip';
const MARKETS: Record<string, string> = {
  'All Mortgages': 'all',
  'Enterprise Acquisitions': 'enterprise',
  'Government / Non-Conventional': 'government',
  'Other Conventional Market': 'other_conventional',
};

interface DerivedRow {
  state: string;
  market: string;
  period: string;
  values: number[];
}

/** The mirror's DERIVED pivot: one row per state × market × quarter, the rate figures as published. */
function readDerived(): DerivedRow[] {
  const [header, ...lines] = fs
    .readFileSync(sourceFile('rates/state_nmdb/nmdb_states_quarterly_interest_rate_DERIVED.csv'), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(header).toBe(
    'state,state_name,market,period,ave_intrate_loan_weighted,ave_intrate_dollar_weighted,pct_intrate_lt_3,pct_intrate_3_4,pct_intrate_4_5,pct_intrate_5_6,pct_intrate_ge_6,any_suppressed',
  );
  return lines.map((line) => {
    const cells = line.split(',');
    return { state: cells[0]!, market: MARKETS[cells[2]!]!, period: cells[3]!, values: cells.slice(4, 11).map(Number) };
  });
}

/** The zip's one entry, inflated with a reader of the test's own (local header, raw deflate). */
function unzipOnly(bytes: Buffer): { name: string; text: string } {
  expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
  const nameLength = bytes.readUInt16LE(26);
  const name = bytes.toString('utf8', 30, 30 + nameLength);
  // The sizes of a streamed entry are in the central directory: take them from there.
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const central = bytes.readUInt32LE(end + 16);
  const compressed = bytes.readUInt32LE(central + 20);
  const start = 30 + nameLength + bytes.readUInt16LE(28);
  return { name, text: inflateRawSync(bytes.subarray(start, start + compressed)).toString('utf8') };
}

/** A one-entry zip (deflated), written the way the format says, for doctored copies of the file. */
function zipOf(name: string, text: string): Buffer {
  const data = Buffer.from(text, 'utf8');
  const compressed = deflateRawSync(data);
  const fileName = Buffer.from(name, 'utf8');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt32LE(0, 42);
  const centralOffset = local.length + fileName.length + compressed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, compressed, central, fileName, end]);
}

function mirrorWith(zip: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-nmdb-mirror-'));
  fs.mkdirSync(path.join(dir, path.dirname(ZIP)), { recursive: true });
  fs.writeFileSync(path.join(dir, ZIP), zip);
  return dir;
}

describe.skipIf(!hasSourceData)("nmdb sync on the publisher's zip", () => {
  let database: TestDatabase;
  const mirrors: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database?.drop();
    for (const dir of mirrors) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads every rate figure, dated by the latest quarter, equal to the DERIVED pivot of the file', async () => {
    const report = await syncInto(database.db, ['nmdb']);
    expect(report.results.map((result) => [result.name, result.status, result.rows, result.asOf])).toEqual([
      ['nmdb', 'ok', 51 * 4 * 51 * 6, '2025-09-30'],
    ]);

    const service = createNmdbService({
      db: database.db,
      datasets: createDatasetStatus({ db: database.db }),
      logger: createLogger('silent'),
    });
    const derived = readDerived();
    expect(derived).toHaveLength(10_404);
    const answers = new Map<string, Awaited<ReturnType<typeof service.stateRates>>>();
    let compared = 0;
    for (const row of derived) {
      const key = `${row.state}|${row.market}`;
      if (!answers.has(key)) answers.set(key, await service.stateRates({ state: row.state, market: row.market }));
      const quarter = answers.get(key)!.quarters.find((candidate) => candidate.period === row.period);
      expect(quarter, `${key} ${row.period}`).toBeDefined();
      const served = [
        quarter!.average_rate_percent,
        quarter!.average_rate_dollar_weighted_percent,
        quarter!.percent_of_loans.below_3,
        quarter!.percent_of_loans.from_3_to_4,
        quarter!.percent_of_loans.from_4_to_5,
        quarter!.percent_of_loans.from_5_to_6,
        quarter!.percent_of_loans.at_least_6,
      ];
      expect(served, `${key} ${row.period}`).toEqual(row.values);
      compared += 1;
    }
    expect(compared).toBe(10_404);

    const california = await service.stateRates({ state: 'california' });
    expect(california).toMatchObject({
      state: 'CA',
      market: 'all',
      as_of: '2025-09-30',
      latest: { period: '2025Q3', quarter_end: '2025-09-30', average_rate_percent: 4 },
    });
    expect(california.quarters).toHaveLength(51);
    expect(california.sources[0]?.url).toBe(
      'https://www.fhfa.gov/document/d/nmdb/nmdb-outstanding-mortgage-statistics-states-quarterly.zip',
    );
    await expect(service.stateRates({ state: 'ZZ' })).rejects.toMatchObject({ status: 400 });

    const second = await syncInto(database.db, ['nmdb']);
    expect(second.results.map((result) => [result.name, result.status, result.changed])).toEqual([['nmdb', 'ok', 0]]);
  }, 240_000);

  it('fails a zip without a state or cut short, keeping the earlier load', async () => {
    const original = unzipOnly(fs.readFileSync(path.join(SOURCE_DIR, ZIP)));
    const withoutWyoming = original.text
      .split('\n')
      .filter((line) => !line.includes(',State,WY,'))
      .join('\n');
    const noState = mirrorWith(zipOf(original.name, withoutWyoming));
    const truncated = mirrorWith(fs.readFileSync(path.join(SOURCE_DIR, ZIP)).subarray(0, 1_000_000));
    mirrors.push(noState, truncated);

    const missing = await syncInto(database.db, ['nmdb'], { sourceDir: noState });
    expect(missing.results[0]).toMatchObject({ name: 'nmdb', status: 'failed' });
    expect(missing.results[0]?.message).toMatch(/no rows for WY/);

    const cut = await syncInto(database.db, ['nmdb'], { sourceDir: truncated });
    expect(cut.results[0]).toMatchObject({ name: 'nmdb', status: 'failed' });
    expect(cut.results[0]?.message).toMatch(/not a zip archive|cut short/);

    const { rows } = await database.db.query<{ n: string | number }>("SELECT count(*) AS n FROM nmdb_state_rates WHERE state = 'WY'");
    expect(Number(rows[0]?.n)).toBe(4 * 51 * 6);
    const { rows: record } = await database.db.query<{ as_of: unknown; row_count: number }>(
      "SELECT as_of, row_count FROM datasets WHERE name = 'nmdb'",
    );
    expect(Number(record[0]?.row_count)).toBe(62_424);
  }, 240_000);
});
