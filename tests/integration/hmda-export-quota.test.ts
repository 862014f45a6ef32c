// The export space as a hard cap, on a loaded warehouse with real sandbox processes and small caps:
// a result larger than a key's quota is stopped while it is written and leaves no file; a key that
// filled its quota waits (429) while another key still exports; the folder, sampled all along,
// never holds more than its cap.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmdaService, type HmdaService } from '../../api/hmda/service.ts';
import { BadRequestError, TooManyRequestsError } from '../../api/platform/errors.ts';
import { hasSourceData } from '../support/source-data.ts';
import { hmdaServiceSettings, silentLogger, sliceWarehouse, tempDir } from './hmda-fixtures.ts';

/** Per key; every result below is exported (the answer budget is tiny). */
const KEY_MAX_BYTES = 200_000;
const FOLDER_MAX_BYTES = 500_000;
/** Two such exports (CSV and Parquet, 1,985 rows) fit a key's quota; a third does not. */
const narrow = (extra: number) => `SELECT lei, loan_amount, ${extra} AS n FROM lar`;

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe.skipIf(!hasSourceData)('the export space quota', () => {
  let root: string;
  let service: HmdaService;
  let exportsDir: string;
  let sampler: NodeJS.Timeout;
  let largestSeen = 0;

  const folderBytes = () => {
    let total = 0;
    for (const name of fs.existsSync(exportsDir) ? fs.readdirSync(exportsDir) : [])
      total += fs.statSync(path.join(exportsDir, name), { throwIfNoEntry: false })?.size ?? 0;
    return total;
  };

  beforeAll(async () => {
    root = tempDir('hmda-export-quota');
    await sliceWarehouse(root);
    exportsDir = path.join(root, 'exports');
    service = createHmdaService({
      ...hmdaServiceSettings(root),
      logger: silentLogger,
      answerBudgetBytes: 2_000,
      exportKeyMaxBytes: KEY_MAX_BYTES,
      exportMaxBytes: FOLDER_MAX_BYTES,
    });
    // Samples the folder while the exports are written: the cap must hold during writes too.
    sampler = setInterval(() => (largestSeen = Math.max(largestSeen, folderBytes())), 2);
  }, 120_000);
  afterAll(async () => {
    clearInterval(sampler);
    await service?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('stops a result larger than a key may export while it is written, and leaves no file', async () => {
    const error = await failure(service.answer({ sql: 'SELECT * FROM lar' }, { keyId: 'wide' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/more than the 0\.2 MB an export may use; narrow the query/);
    expect(fs.readdirSync(exportsDir)).toEqual([]);
  }, 60_000);

  it('lets a key export up to its quota, then makes it wait while another key still exports', async () => {
    for (const extra of [1, 2]) {
      const answer = await service.answer({ sql: narrow(extra) }, { keyId: 'busy' });
      expect(answer.complete).toBe(false);
      expect(answer.export).not.toBeNull();
    }
    const third = await failure(service.answer({ sql: narrow(3) }, { keyId: 'busy' }));
    expect(third).toBeInstanceOf(TooManyRequestsError);
    expect((third as TooManyRequestsError).headers['Retry-After']).toMatch(/^\d+$/);
    // The same question another key asked before is the same file: no new space is taken.
    expect((await service.answer({ sql: narrow(1) }, { keyId: 'other' })).export).not.toBeNull();
    const other = await service.answer({ sql: narrow(4) }, { keyId: 'other' });
    expect(other.export).not.toBeNull();
    expect(fs.readdirSync(exportsDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 120_000);

  it('never let the folder pass its cap', () => {
    expect(largestSeen).toBeGreaterThan(0);
    expect(largestSeen).toBeLessThanOrEqual(FOLDER_MAX_BYTES);
    expect(folderBytes()).toBeLessThanOrEqual(FOLDER_MAX_BYTES);
  });
});
