// What /healthz tells an operator about a failed dataset: a download failure is not fixed by running
// the same sync again offline, so its hint names MDS_SOURCE_DIR instead. And the service's status:
// `starting` before any load, datasets missing by design here listed apart from failed ones.
import { describe, expect, it } from 'vitest';
import { healthStatus, publisherUnreachable } from '../../api/health/route.ts';
import { describeDataset } from '../../api/platform/datasets.ts';
import type { Attempt } from '../../api/platform/sync-attempts.ts';
import { SourceFormatError, SourceUnavailableError, ValidationError } from '../../api/sync/errors.ts';
import { failureReason } from '../../api/sync/failure-reason.ts';

const entry = {
  id: 'pmms',
  publisherUrl: 'https://www.freddiemac.com/pmms/docs/PMMS_history.csv',
  format: 'csv',
  mirrorPath: 'rates/x.csv',
};

describe('the failed-dataset hint', () => {
  it('recognises the recorded reason of a download failure, and only that', () => {
    const offline = failureReason(new SourceUnavailableError('download failed (fetch failed)'), { files: [], unreadable: entry });
    expect(publisherUnreachable(offline)).toBe(true);
    const bad = failureReason(new SourceFormatError('x.csv', 3, 'bad row'), { files: [] });
    expect(publisherUnreachable(bad)).toBe(false);
    expect(publisherUnreachable(failureReason(new ValidationError('too few rows'), { files: [] }))).toBe(false);
  });
});

describe('the service status /healthz gives', () => {
  const record = (name: string) => ({
    name,
    asOf: '2026-01-01',
    sourceUrl: 'https://example.gov',
    checksum: 'x',
    rows: 1,
    loadedAt: '2026-11-24T06:00:00Z',
  });
  const attempt = (dataset: string, status: Attempt['status'], reason?: string): [string, Attempt] => [
    dataset,
    { id: 1, runId: 'run', dataset, status, startedAt: '2026-11-24T06:00:00Z', finishedAt: '2026-11-24T06:00:05Z', reason: reason ?? null },
  ];
  const overview = (loaded: string[], attempts: [string, Attempt][], others: string[] = []) => {
    const latest = new Map(attempts);
    const names = [...loaded, ...attempts.map(([name]) => name), ...others];
    return [...new Set(names)].map((name) =>
      describeDataset(name, loaded.includes(name) ? record(name) : undefined, { latest, lockHeld: false }),
    );
  };

  it('says starting, not ok, while no dataset is loaded yet', () => {
    expect(healthStatus(overview([], [], ['pmms', 'counties']), false)).toEqual({ status: 'starting' });
  });

  it('lists datasets missing by design apart and stays ok; a failed one makes it degraded', () => {
    const noRecords = 'No HMDA loan records are loaded in the warehouse, so rates stay national.';
    expect(healthStatus(overview(['pmms'], [attempt('state_rate_estimates', 'skipped', noRecords)]), false)).toEqual({
      status: 'ok',
      missing_datasets: ['state_rate_estimates'],
    });
    expect(
      healthStatus(overview(['pmms'], [attempt('apor', 'skipped', 'not in the folder'), attempt('counties', 'failed', 'bad file')]), false),
    ).toEqual({ status: 'degraded', failed_datasets: ['counties'], missing_datasets: ['apor'] });
    expect(healthStatus(overview(['pmms'], []), true)).toEqual({ status: 'degraded' });
  });
});
