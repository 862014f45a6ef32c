// The pieces behind "why is this dataset missing": the state read from a record, the latest attempt
// and the sync lock; the sentence each state gets; the one-sentence reason of a failed load; the
// start-up sync's wait between looks; and the county list's vintage read from its own codes.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { missingDatasetError, missingDatasetMessage, notPublishedError } from '../../api/platform/dataset-states.ts';
import { describeDataset, type DatasetRecord } from '../../api/platform/datasets.ts';
import type { Attempt } from '../../api/platform/sync-attempts.ts';
import { dependencyReason, failureReason } from '../../api/sync/failure-reason.ts';
import { SourceFormatError, SourceUnavailableError, ValidationError } from '../../api/sync/errors.ts';
import type { SourceEntry, SourceFile } from '../../api/sync/types.ts';
import { catchUpDelay } from '../../api/sync/background.ts';
import { countyListVintage } from '../../api/loan-limits/counties.ts';
import { parseCountyList } from '../../api/geo/county-list.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

const attempt = (status: Attempt['status'], extra: Partial<Attempt> = {}): Attempt => ({
  id: 7,
  runId: 'run',
  dataset: 'pmms',
  status,
  startedAt: '2026-03-02T06:30:05.000Z',
  finishedAt: status === 'running' ? null : '2026-03-02T06:31:40.000Z',
  reason: null,
  ...extra,
});
const record: DatasetRecord = {
  name: 'pmms',
  asOf: '2026-02-26',
  sourceUrl: 'https://www.freddiemac.com/pmms',
  checksum: 'x',
  rows: 10,
  loadedAt: '2026-03-01T06:31:00.000Z',
};
const attempts = (latest: Attempt | undefined, lockHeld = false) => ({ latest: new Map(latest ? [['pmms', latest]] : []), lockHeld });

describe('where a dataset stands', () => {
  it('is never loaded without a record or an attempt', () => {
    expect(describeDataset('pmms', undefined, attempts(undefined)).availability).toEqual({ state: 'never_loaded' });
  });
  it('is loading while its attempt runs and some process holds the sync lock', () => {
    const overview = describeDataset('pmms', undefined, attempts(attempt('running'), true));
    expect(overview.availability).toEqual({ state: 'loading', since: '2026-03-02T06:30:05.000Z' });
  });
  it('has failed, interrupted, when its attempt says running but nobody holds the lock (the process died)', () => {
    expect(describeDataset('pmms', undefined, attempts(attempt('running'), false)).availability).toEqual({
      state: 'failed',
      at: '2026-03-02T06:30:05.000Z',
      reason: 'The load was interrupted before it finished.',
    });
  });
  it('has failed, with the recorded reason, after a failed attempt', () => {
    const failed = describeDataset(
      'pmms',
      undefined,
      attempts(attempt('failed', { reason: 'The publisher’s file could not be retrieved.' })),
    );
    expect(failed.availability).toEqual({
      state: 'failed',
      at: '2026-03-02T06:31:40.000Z',
      reason: 'The publisher’s file could not be retrieved.',
    });
  });
  it('is missing, not failed, after a skipped attempt: its source has nothing to load in this setup', () => {
    const skipped = describeDataset('pmms', undefined, attempts(attempt('skipped', { reason: 'The table is not in the source folder.' })));
    expect(skipped.availability).toEqual({
      state: 'missing',
      at: '2026-03-02T06:31:40.000Z',
      reason: 'The table is not in the source folder.',
    });
    expect(skipped.lastFailure).toBeUndefined();
    expect(
      missingDatasetMessage('apor', { state: 'missing', at: '2026-03-02T06:31:40.000Z', reason: 'The table is not in the source folder.' }),
    ).toBe('The apor dataset is not available on this server: The table is not in the source folder.');
  });
  it('stays loaded when a refresh fails or runs, and says so beside it', () => {
    const refreshFailed = describeDataset('pmms', record, attempts(attempt('failed', { reason: 'R.' })));
    expect(refreshFailed).toMatchObject({
      availability: { state: 'loaded' },
      lastFailure: { at: '2026-03-02T06:31:40.000Z', reason: 'R.' },
    });
    const refreshing = describeDataset('pmms', record, attempts(attempt('running'), true));
    expect(refreshing).toMatchObject({ availability: { state: 'loaded' }, loadingSince: '2026-03-02T06:30:05.000Z' });
    expect(refreshing.lastFailure).toBeUndefined();
  });
});

describe('the words', () => {
  it('say which state holds, with the moment in UTC, and no operator command', () => {
    const never = missingDatasetMessage('pmms', { state: 'never_loaded' });
    const loading = missingDatasetMessage('pmms', { state: 'loading', since: '2026-03-02T06:30:05.000Z' });
    const failed = missingDatasetMessage('pmms', {
      state: 'failed',
      at: '2026-03-02T06:31:40.000Z',
      reason: 'The publisher’s file could not be retrieved.',
    });
    expect(never).toBe('The pmms dataset is not loaded yet: this service has never loaded it.');
    expect(loading).toBe('The pmms dataset is not loaded yet: it is loading now (since 2026-03-02 at 06:30 UTC); retry in a minute.');
    expect(failed).toBe(
      'The pmms dataset is not available: its last load failed on 2026-03-02 at 06:31 UTC. The publisher’s file could not be retrieved.',
    );
    for (const text of [never, loading, failed]) expect(text).not.toMatch(/npm|sync --|may still be running/);
  });
  it('come with a Retry-After that fits the state', () => {
    expect(missingDatasetError('pmms', { state: 'loading', since: '2026-03-02T06:30:05Z' }).headers['Retry-After']).toBe('60');
    expect(missingDatasetError('pmms', { state: 'failed', at: '2026-03-02T06:30:05Z', reason: 'R.' }).headers['Retry-After']).toBe('3600');
    expect(missingDatasetError('pmms', { state: 'never_loaded' }).status).toBe(503);
  });
  it('say what a publisher does not publish with a 404', () => {
    const error = notPublishedError({ publisher: 'FHFA', subject: 'county conforming limits for 2017', available: 'years 2018–2026' });
    expect(error.status).toBe(404);
    expect(error.message).toBe('FHFA does not publish county conforming limits for 2017; available: years 2018–2026.');
  });
});

describe('the reason of a failed load', () => {
  const entry: SourceEntry = {
    id: 'census',
    publisherUrl: 'https://www.census.gov/list.html',
    format: 'csv',
    mirrorPath: 'geo/county_FIPS.csv',
  };
  const file: SourceFile = { entry, bytes: Buffer.from(''), origin: '/data/mirror/geo/county_FIPS.csv', checksum: 'x' };

  it('names the publisher URL of the file, never the local path or the line', () => {
    const format = failureReason(new SourceFormatError(file.origin, 17, 'county FIPS "0X001" is not 5 digits'), { files: [file] });
    expect(format).toBe(
      "The publisher's file (https://www.census.gov/list.html) is not in the format this service reads; the publisher may have changed it.",
    );
    const validation = failureReason(new ValidationError(`${file.origin}: only 12 counties; expected at least 3,200.`), { files: [file] });
    expect(validation).toBe(
      "The publisher's file (https://www.census.gov/list.html) failed this service's consistency checks, so its figures were not used.",
    );
    const unreadable = failureReason(new SourceUnavailableError('/data/mirror/geo/county_FIPS.csv: no such file'), {
      files: [],
      unreadable: entry,
    });
    expect(unreadable).toBe("The publisher's file (https://www.census.gov/list.html) could not be retrieved.");
    for (const text of [format, validation, unreadable]) expect(text).not.toMatch(/mirror|:17|0X001/);
  });
  it('keeps anything else to one plain sentence, and names missing dependencies', () => {
    expect(failureReason(new TypeError("Cannot read properties of undefined (reading 'x')"), { files: [file] })).toBe(
      'An internal error stopped the load.',
    );
    expect(dependencyReason(['counties'])).toBe('It needs the counties dataset, which did not load.');
    expect(dependencyReason(['a', 'b', 'c'])).toBe('It needs the a dataset, the b dataset and the c dataset, which did not load.');
  });
});

describe('the start-up sync waiting for another instance', () => {
  it('looks again after a doubling wait, capped, spread by jitter', () => {
    const timing = { firstDelayMs: 5_000, maxDelayMs: 60_000 };
    expect([1, 2, 3, 4, 5, 9].map((look) => catchUpDelay(look, timing, () => 0.5))).toEqual([
      5_000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
    expect(catchUpDelay(1, timing, () => 0)).toBe(4_000);
    expect(catchUpDelay(1, timing, () => 1)).toBe(6_000);
  });
});

describe.skipIf(!hasSourceData)("the county list's vintage", () => {
  it('is the effective date of the newest county code in Census’s list, not the day of the sync', () => {
    const file = sourceFile('geo', 'county_FIPS.csv');
    const counties = parseCountyList(fs.readFileSync(file), file);
    // The mirror's list has Chugach (02063) and Copper River (02066), created 2019-01-02, and not
    // yet Connecticut's planning regions (2022).
    expect(countyListVintage(counties, file)).toMatchObject({
      asOf: '2019-01-02',
      change: expect.stringContaining('from Valdez-Cordova Census Area'),
    });
    expect(countyListVintage([...counties, { fips: '09110' }], file).asOf).toBe('2022-06-06');
    expect(() =>
      countyListVintage(
        counties.filter((county) => !['08014', '46102', '02158', '02063', '02066'].includes(county.fips)),
        file,
      ),
    ).toThrow(/vintage is unknown/);
  });
});
