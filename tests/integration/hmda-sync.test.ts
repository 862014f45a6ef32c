// The `hmda` sync dataset: registered (not synced by default), --years/--states/--all parsed, one
// source entry per state-year, and loads that cannot be validated or that carry synthetic rows fail
// with an actionable message while the warehouse stays as it was.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCalibration } from '../../api/hmda/calibration.ts';
import { writeSyntheticLar } from '../../api/hmda/synthetic.ts';
import { hmdaDataset, larEntry, selection } from '../../api/hmda/sync.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { createSourceReader } from '../../api/sync/source.ts';
import { SourceUnavailableError, ValidationError } from '../../api/sync/errors.ts';
import type { SyncContext } from '../../api/sync/types.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { hmdaConfig, silentLogger, tempDir } from './hmda-fixtures.ts';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function context(root: string, sourceDir: string, options: Record<string, string | boolean>): SyncContext {
  const config = { ...hmdaConfig(root), sourceDir };
  const reader = createSourceReader({ sourceDir });
  return { config, logger: silentLogger, clock: () => new Date('2026-01-05T00:00:00Z'), ...reader, progress: () => undefined, options };
}

describe('hmda sync dataset', () => {
  it('is registered and only synced when asked for', () => {
    const definition = datasetDefinitions.find((d) => d.name === 'hmda');
    expect(definition).toBe(hmdaDataset);
    expect(definition?.syncByDefault).toBe(false);
  });

  it('reads --years, --states and --all', () => {
    expect(selection({ years: '2022,2023', states: 'co,TX' })).toEqual({ years: [2022, 2023], states: ['CO', 'TX'] });
    expect(selection({ all: true, states: 'WY' }).years).toEqual([2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025]);
    expect(selection({ years: '2018-2020' }).states).toContain('PR');
    expect(() => selection({})).toThrow(/--years 2023/);
    expect(() => selection({ years: '2017' })).toThrow(/2017 is not an HMDA year/);
    expect(() => selection({ years: '2022', states: 'XX' })).toThrow(/XX is not one of/);
  });

  it('cites the Data Browser CSV of each state-year', () => {
    expect(larEntry(2023, 'CO')).toMatchObject({
      id: 'hmda-lar-2023-CO',
      publisherUrl: 'https://ffiec.cfpb.gov/v2/data-browser-api/view/csv?states=CO&years=2023',
      mirrorPath: 'hmda/lar/2023/2023_public_lar_CO.csv',
    });
  });

  it.skipIf(!hasSourceData)('fails naming the missing file when the source folder lacks the state-year', async () => {
    const root = tempDir('hmda-sync-missing');
    folders.push(root);
    const failure = await hmdaDataset
      .load({ query: async () => ({ rows: [], rowCount: 0 }) } as never, context(root, SOURCE_DIR, { years: '2022', states: 'CO' }))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SourceUnavailableError);
    expect((failure as Error).message).toContain('hmda/lar/2022/2022_public_lar_CO.csv');
    expect(fs.existsSync(path.join(root, 'lar'))).toBe(false);
  });

  it.skipIf(!hasSourceData)('refuses a state-year file of synthetic rows and publishes nothing', async () => {
    const root = tempDir('hmda-sync-synthetic');
    folders.push(root);
    const mirror = path.join(root, 'mirror');
    fs.mkdirSync(path.join(mirror, 'hmda', 'aggregates'), { recursive: true });
    fs.copyFileSync(
      path.join(SOURCE_DIR, 'hmda', 'aggregates', 'by_state_2022.json'),
      path.join(mirror, 'hmda', 'aggregates', 'by_state_2022.json'),
    );
    const file = path.join(mirror, larEntry(2022, 'WY').mirrorPath);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const out = fs.createWriteStream(file);
    await writeSyntheticLar(out, { year: 2022, states: ['WY'], aggregates: loadCalibration(SOURCE_DIR, 2022).states, scale: 1 });
    await new Promise<void>((resolve) => out.end(resolve));
    const warehouse = path.join(root, 'warehouse');
    const failure = await hmdaDataset
      .load({} as never, context(warehouse, mirror, { years: '2022', states: 'WY' }))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as Error).message).toMatch(/synthetic rows are never loaded into the real warehouse/);
    expect(fs.existsSync(path.join(warehouse, 'lar'))).toBe(false);
  });
});
