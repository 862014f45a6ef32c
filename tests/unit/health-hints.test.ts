// What /healthz tells an operator about a failed dataset: a download failure is not fixed by running
// the same sync again offline, so its hint names MDS_SOURCE_DIR instead.
import { describe, expect, it } from 'vitest';
import { publisherUnreachable } from '../../api/health/route.ts';
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
