// The state estimate end to end. A warehouse of SYNTHETIC loans with a planted median rate spread per
// state (plus loans the method must leave out) goes through the real ingest, the estimate dataset's
// sync and GET /rates: each state's median is recovered within 0.01 points, the adjustment is that
// median minus the national one, and /rates differs by state by exactly it. The real 99-column Data
// Browser slice shows the computation reads the columns it filters on, counted here from the file
// itself; as an extract it is refused for the published estimate.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { STATE_CODES } from '../../api/geo/states.ts';
import { viewStatements } from '../../api/hmda/views.ts';
import { layout, loadLar, readManifest } from '../../api/hmda/warehouse.ts';
import { LAR_COLUMNS } from '../../api/hmda/schema.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { computeStateSpreads } from '../../api/rates/estimate/compute.ts';
import { stateEstimateDataset } from '../../api/rates/estimate/dataset.ts';
import { stateEstimateRefresher } from '../../api/rates/estimate/job.ts';
import { MINIMUM_SAMPLE } from '../../api/rates/estimate/method.ts';
import { runSync } from '../../api/sync/runner.ts';
import { readHealth } from '../../api/health/route.ts';
import type { TestDatabase } from '../support/databases.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { buildTestApp, listen } from '../support/app.ts';
import { SLICE_99_CSV, sliceWarehouse, tempDir, withConnection } from './hmda-fixtures.ts';

const YEAR = 2024;
/** Planted median spread of each state: distinct, 0.20 to 0.70 points. */
const planted = (index: number) => Math.round((0.2 + index * 0.01) * 1000) / 1000;
/** Loans per state in the conventional purchase LTV ≤ 80 cell (odd: the median is the middle loan). */
const CELL_LOANS = 301;
/** Loans per state in the LTV > 80 cell: below the minimum sample. */
const SMALL_CELL = 40;

const HEADER = LAR_COLUMNS.map((column) => column.header);
const BASE: Record<string, string> = {
  activity_year: String(YEAR),
  conforming_loan_limit: 'C',
  action_taken: '1',
  loan_type: '1',
  loan_purpose: '1',
  lien_status: '1',
  reverse_mortgage: '2',
  'open-end_line_of_credit': '2',
  business_or_commercial_purpose: '2',
  loan_term: '360',
  intro_rate_period: 'NA',
  negative_amortization: '2',
  interest_only_payment: '2',
  balloon_payment: '2',
  other_nonamortizing_features: '2',
  construction_method: '1',
  occupancy_type: '1',
  total_units: '1',
  combined_loan_to_value_ratio: '75',
};

function line(values: Record<string, string>, lei: string): string {
  const row: Record<string, string> = { ...BASE, ...values, lei };
  return HEADER.map((header) => row[header] ?? 'NA').join(',');
}

/** The SYNTHETIC LAR file, and every spread of the LTV ≤ 80 cell it plants (for the national median). */
function syntheticLar(): { csv: string; cellSpreads: number[] } {
  const lines = [HEADER.join(',')];
  const cellSpreads: number[] = [];
  let serial = 0;
  const lei = () => `SYNTHETIC${String((serial += 1) % 400).padStart(11, '0')}`;
  STATE_CODES.forEach((state, index) => {
    const median = planted(index);
    for (let k = 0; k < CELL_LOANS; k += 1) {
      const spread = Math.round((median + (k - (CELL_LOANS - 1) / 2) * 0.002) * 1000) / 1000;
      cellSpreads.push(spread);
      lines.push(line({ state_code: state, rate_spread: spread.toFixed(3) }, lei()));
    }
    for (let k = 0; k < SMALL_CELL; k += 1)
      lines.push(line({ state_code: state, rate_spread: '0.9', combined_loan_to_value_ratio: '95' }, lei()));
    // Loans the method leaves out, with spreads far away: any leak moves the medians.
    const excluded: Record<string, string>[] = [
      { loan_term: '180' },
      { action_taken: '3' },
      { loan_purpose: '32' },
      { lien_status: '2' },
      { occupancy_type: '3' },
      { construction_method: '2' },
      { total_units: '5-24' },
      { intro_rate_period: '60' },
      { balloon_payment: '1' },
      { business_or_commercial_purpose: '1' },
      { rate_spread: 'NA' },
    ];
    for (const change of excluded)
      for (let k = 0; k < 30; k += 1) lines.push(line({ state_code: state, rate_spread: '4.5', ...change }, lei()));
  });
  return { csv: `${lines.join('\n')}\n`, cellSpreads };
}

const medianOf = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasSourceData)('the state estimate on a warehouse with planted state spreads', () => {
  let database: TestDatabase;
  let root: string;
  let nationalMedian: number;

  beforeAll(async () => {
    root = tempDir('rates-estimate');
    folders.push(root);
    const { csv, cellSpreads } = syntheticLar();
    nationalMedian = medianOf(cellSpreads);
    const file = path.join(root, 'synthetic-lar.csv');
    fs.writeFileSync(file, csv);
    await withConnection((connection) =>
      loadLar(connection, {
        root,
        synthetic: true,
        skipValidation: true,
        aggregatesFor: () => undefined,
        files: [{ csvPath: file, sourceUrl: 'synthetic', checksum: 'synthetic' }],
      }),
    );
    fs.rmSync(file);
    database = await syncedTestDatabase('pglite', ['pmms', 'optimal_blue']);
    const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', HMDA_DIR: root });
    const report = await runSync(database.db, [stateEstimateDataset], {
      names: ['state_rate_estimates'],
      logger: createLogger('silent'),
      config,
    });
    expect(report.results[0]).toMatchObject({ status: 'ok', asOf: `${YEAR}-12-31` });
  }, 120_000);

  afterAll(async () => {
    await database?.drop();
  });

  it("recovers every state's planted median spread within 0.01 points, and the adjustment against the national median", async () => {
    const { rows } = await database.db.query<{
      state: string;
      median_spread: number;
      adjustment: number;
      sample_size: number;
      national_median: number;
    }>(
      `SELECT state, median_spread::float8 AS median_spread, adjustment::float8 AS adjustment, sample_size, national_median::float8 AS national_median
       FROM rate_state_estimates WHERE product_type = 'conventional' AND loan_purpose = 'purchase' AND ltv_band = 1 ORDER BY state`,
    );
    expect(rows).toHaveLength(STATE_CODES.length);
    for (const row of rows) {
      const index = STATE_CODES.indexOf(row.state as (typeof STATE_CODES)[number]);
      expect(Math.abs(Number(row.median_spread) - planted(index))).toBeLessThan(0.01);
      expect(Number(row.sample_size)).toBe(CELL_LOANS);
      expect(Math.abs(Number(row.national_median) - nationalMedian)).toBeLessThan(0.0005);
      expect(Math.abs(Number(row.adjustment) - (planted(index) - nationalMedian))).toBeLessThan(0.01);
    }
  });

  it('answers /rates per state as the national benchmark plus that adjustment, saying so; a small cell gets none', async () => {
    const app = await buildTestApp(database.db, { env: { HMDA_DIR: root }, clock: () => new Date('2026-11-27T12:00:00Z') });
    const server = await listen(app.app);
    try {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body is checked field by field below
      const get = async (query: string): Promise<any> => (await fetch(`${server.url}/api/v1/rates?${query}`)).json();
      const tx = await get('state=TX');
      const wy = await get('state=WY');
      expect(tx.rate_kind).toBe('state_estimate');
      expect(tx.estimate).toMatchObject({
        hmda_year: YEAR,
        sample_size: CELL_LOANS,
        minimum_sample_size: MINIMUM_SAMPLE,
        synthetic: true,
        method_url: 'http://localhost:3000/methods/state-rate-estimate',
      });
      const national = tx.estimate.national_rate;
      expect(wy.estimate.national_rate).toBe(national);
      const expected = (state: (typeof STATE_CODES)[number]) =>
        Math.round((national + planted(STATE_CODES.indexOf(state)) - nationalMedian) * 1000) / 1000;
      expect(Math.abs(tx.rate - expected('TX'))).toBeLessThan(0.01);
      expect(Math.abs(wy.rate - expected('WY'))).toBeLessThan(0.01);
      expect(Math.abs(wy.rate - tx.rate - (wy.estimate.adjustment_points - tx.estimate.adjustment_points))).toBeLessThan(0.0005);
      expect(tx.source).toMatch(/\+ FFIEC HMDA loan records \(CFPB\), 2024 state rate-spread estimate \(SYNTHETIC rows\)$/);
      expect(tx.disclaimer).toMatch(/^This is an estimate, not an observed TX rate/);
      expect(tx.disclaimer).toMatch(/SYNTHETIC/);
      expect(tx.sources.map((source: { url: string }) => source.url)).toContain('http://localhost:3000/methods/state-rate-estimate');
      const simple = await get('state=TX&format=simple');
      expect(simple).toMatchObject({ rate: tx.rate, rate_kind: 'state_estimate', source: tx.source });

      const small = await get('state=TX&ltv=2');
      expect(small).toMatchObject({ rate_kind: 'national', estimate: { sample_size: SMALL_CELL, adjustment_points: null } });
      expect(small.missing.join(' ')).toMatch(/TX had 40 .* fewer than the 300 the estimate needs/);
      const fifteen = await get('state=TX&loan_term=15');
      expect(fifteen.rate_kind).toBe('national');
      expect(fifteen.missing.join(' ')).toMatch(/covers 30-year loans only/);
    } finally {
      await server.close();
      await app.close();
    }
  });

  it('is recomputed off the request path when the warehouse changes, and only then', async () => {
    const app = await buildTestApp(database.db, { env: { HMDA_DIR: root } });
    const refresher = stateEstimateRefresher(app.deps);
    try {
      const checksum = async () =>
        (await database.db.query<{ checksum: string }>("SELECT checksum FROM datasets WHERE name = 'state_rate_estimates'")).rows[0]
          ?.checksum;
      const before = await checksum();
      expect(await refresher.check()).toBe(false); // the load already matches the warehouse
      // A state-year published again (as a reload of its file does): the manifest's version changes.
      const manifest = readManifest(root)!;
      const texas = Object.values(manifest.partitions).find((partition) => partition.state === 'TX')!;
      texas.loadedAt = new Date('2026-11-27T00:00:00Z').toISOString();
      fs.writeFileSync(layout(root).manifestPath, JSON.stringify(manifest));
      expect(await refresher.check()).toBe(true);
      expect(await checksum()).not.toBe(before);
      expect(await refresher.check()).toBe(false);
    } finally {
      refresher.stop();
      await app.close();
    }
  });
});

describe.skipIf(!hasSourceData)('the real 99-column slice through the estimate computation', () => {
  it('reads every column the method filters on: the cells and medians match the file counted here', async () => {
    const root = tempDir('rates-estimate-slice');
    folders.push(root);
    await sliceWarehouse(root);
    const rows = await withConnection(async (connection) => {
      for (const statement of viewStatements(root)) await connection.run(statement);
      return computeStateSpreads(connection, 2020);
    });
    // The same filters applied to the CSV as published (LF lines, no quoting: a split on commas is exact).
    const [head = '', ...lines] = fs
      .readFileSync(SLICE_99_CSV, 'utf8')
      .split('\n')
      .filter((text) => text !== '');
    const header = head.split(',');
    const at = (name: string) => header.indexOf(name);
    const cells = new Map<string, number[]>();
    for (const fields of lines.map((text) => text.split(','))) {
      const get = (name: string) => fields[at(name)] ?? '';
      const product =
        {
          '1': get('conforming_loan_limit') === 'C' ? 'conventional' : get('conforming_loan_limit') === 'NC' ? 'jumbo' : '',
          '2': 'fha',
          '3': 'va',
          '4': 'usda',
        }[get('loan_type')] ?? '';
      const purpose = { '1': 'purchase', '31': 'refinance' }[get('loan_purpose')] ?? '';
      const kept =
        get('action_taken') === '1' &&
        get('lien_status') === '1' &&
        get('occupancy_type') === '1' &&
        get('construction_method') === '1' &&
        ['1', '2', '3', '4'].includes(get('total_units')) &&
        get('loan_term') === '360' &&
        ['NA', 'Exempt', ''].includes(get('intro_rate_period')) &&
        [
          'balloon_payment',
          'interest_only_payment',
          'negative_amortization',
          'other_nonamortizing_features',
          'reverse_mortgage',
          'open-end_line_of_credit',
          'business_or_commercial_purpose',
        ].every((name) => get(name) === '2') &&
        !['NA', 'Exempt', ''].includes(get('rate_spread')) &&
        !['NA', 'Exempt', ''].includes(get('loan_to_value_ratio')) &&
        product !== '' &&
        purpose !== '';
      if (!kept) continue;
      const band = Number(get('loan_to_value_ratio')) <= 80 ? 1 : 2;
      const key = `${product}|${purpose}|${band}`;
      cells.set(key, [...(cells.get(key) ?? []), Number(get('rate_spread'))]);
    }
    expect(cells.size).toBeGreaterThan(0);
    expect(rows.map((row) => `${row.productType}|${row.loanPurpose}|${row.ltvBand}`).sort()).toEqual([...cells.keys()].sort());
    for (const row of rows) {
      const spreads = cells.get(`${row.productType}|${row.loanPurpose}|${row.ltvBand}`) ?? [];
      expect(row).toMatchObject({ state: 'CA', sampleSize: spreads.length });
      expect(Math.abs(row.medianSpread - medianOf(spreads))).toBeLessThan(0.001); // stored to three decimals
    }
  });

  it('is refused for the published estimate as an extract: the dataset is missing, not failed', async () => {
    const root = tempDir('rates-estimate-partial');
    folders.push(root);
    await sliceWarehouse(root);
    const database = await syncedTestDatabase('pglite', ['pmms']);
    try {
      const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', HMDA_DIR: root });
      const report = await runSync(database.db, [stateEstimateDataset], {
        names: ['state_rate_estimates'],
        logger: createLogger('silent'),
        config,
      });
      expect(report.results[0]).toMatchObject({ status: 'skipped' });
      expect(report.results[0]?.message).toMatch(/extracts of state-years, not whole ones/);
      const app = await buildTestApp(database.db, { env: { HMDA_DIR: root } });
      try {
        const health = await readHealth(app.deps);
        expect(health.datasets.state_rate_estimates).toMatchObject({ state: 'missing' });
        expect(health.datasets.state_rate_estimates?.missing?.[0]).toMatch(/extracts/);
      } finally {
        await app.close();
      }
    } finally {
      await database.drop();
    }
  }, 120_000);
});
