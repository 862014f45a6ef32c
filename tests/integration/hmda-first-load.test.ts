// HMDA from the first start: the background load of the latest year, state by state, through the
// aggregate gate. The real mirror (no state LAR files) is skipped with one clear line, never an
// error; a mirror of state files loads them, resumes after a stop without reloading what was
// published, refuses a state whose counts differ from the official aggregates while publishing the
// others, and shows its progress on /healthz; a publisher reached over HTTP is loaded the same way,
// and one that cannot be reached leaves the load waiting. State files here are SYNTHETIC rows
// calibrated to the official 2025 aggregates (no whole real state-year is in the mirror), so they
// go into a synthetic warehouse, as the real warehouse refuses them.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCalibration } from '../../api/hmda/calibration.ts';
import { LATEST_HMDA_YEAR } from '../../api/hmda/codes.ts';
import { runHmdaFirstLoad } from '../../api/hmda/first-load.ts';
import { LoadProgress } from '../../api/hmda/load-progress.ts';
import { createHmdaService } from '../../api/hmda/service.ts';
import { writeSyntheticLar } from '../../api/hmda/synthetic.ts';
import { readManifest } from '../../api/hmda/warehouse.ts';
import { buildTestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/databases.ts';
import { hasSourceData, SOURCE_DIR } from '../support/source-data.ts';
import { hmdaConfig, hmdaServiceSettings, silentLogger, tempDir } from './hmda-fixtures.ts';

const YEAR = LATEST_HMDA_YEAR;
const folders: string[] = [];
const scratch = (name: string) => {
  const dir = tempDir(name);
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** A logger whose lines the test reads. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

describe.skipIf(!hasSourceData)('the background HMDA load', () => {
  it('skips a mirror without state LAR files with one clear line, never an error, and /healthz says so', async () => {
    const root = scratch('hmda-first-skip');
    expect(fs.existsSync(path.join(SOURCE_DIR, 'hmda', 'lar'))).toBe(false);
    const database = await createTestDatabase('pglite');
    const app = await buildTestApp(database.db, { env: { HMDA_DIR: root, MDS_SOURCE_DIR: SOURCE_DIR } });
    try {
      const { logger, lines } = capturedLogger();
      const status = await runHmdaFirstLoad({ config: app.deps.config, logger, progress: app.deps.services.hmda.progress });
      expect(status).toMatchObject({ state: 'skipped', states_published: 0 });
      expect(status.message).toContain(path.join(SOURCE_DIR, 'hmda', 'lar'));
      expect(status.message).toContain('npm run sync -- hmda --years');
      expect(lines.filter((line) => Number(line.level) >= 40)).toEqual([]);
      expect(lines.some((line) => String(line.msg).startsWith('No HMDA loan files in the mirror'))).toBe(true);

      const { readHealth } = await import('../../api/health/route.ts');
      expect((await readHealth(app.deps)).hmda_load).toMatchObject({ state: 'skipped', message: status.message });
      // Readers are told what is missing and since when; the operator hint stays in the log and /healthz.
      const error = (await app.deps.services.hmda.answer({ preset: 'rates' }).catch((caught: unknown) => caught)) as Error;
      expect(error.message).toMatch(
        /^HMDA loan records are not loaded on this server yet\. Totals by nation, state and county .* find_series .*analyze_data/,
      );
    } finally {
      await app.close();
      await database.drop();
    }
  });

  describe('from a mirror of state files', () => {
    let mirror: string;
    let root: string;
    const good = ['GU', 'VI'];
    const bad = 'DC';

    beforeAll(async () => {
      mirror = scratch('hmda-first-mirror');
      root = path.join(scratch('hmda-first-warehouse'), 'hmda');
      fs.mkdirSync(path.join(mirror, 'hmda', 'aggregates'), { recursive: true });
      fs.copyFileSync(
        path.join(SOURCE_DIR, 'hmda', 'aggregates', `by_state_${YEAR}.json`),
        path.join(mirror, 'hmda', 'aggregates', `by_state_${YEAR}.json`),
      );
      const larDir = path.join(mirror, 'hmda', 'lar', String(YEAR));
      fs.mkdirSync(larDir, { recursive: true });
      const calibration = loadCalibration(SOURCE_DIR, YEAR);
      for (const state of [...good, bad]) {
        const file = path.join(larDir, `${YEAR}_public_lar_${state}.csv`);
        const out = fs.createWriteStream(file);
        await writeSyntheticLar(out, {
          year: YEAR,
          states: [state],
          aggregates: calibration.states,
          counties: calibration.counties,
          scale: 1,
          seed: 11,
        });
        await new Promise<void>((resolve) => out.end(resolve));
        if (state === bad) {
          // One denied application fewer than the official count: the gate must refuse the state.
          const lines = fs.readFileSync(file, 'utf8').split('\n');
          const victim = lines.findIndex((line, index) => index > 0 && line.split(',')[12] === '3');
          lines.splice(victim, 1);
          fs.writeFileSync(file, lines.join('\n'));
        }
      }
    }, 120_000);

    it('stops between states when asked, keeping what it published', async () => {
      const progress = new LoadProgress(root);
      const controller = new AbortController();
      const { logger, lines } = capturedLogger();
      const config = { ...hmdaConfig(root), sourceDir: mirror };
      // Stopped (as at shutdown) as soon as the first state-year is published.
      const status = await runHmdaFirstLoad({
        config,
        logger,
        progress,
        signal: controller.signal,
        synthetic: true,
        onPublished: () => controller.abort(),
      });
      expect(status).toMatchObject({ state: 'loading', year: YEAR, states_total: 3, states_published: 1 });
      expect(status.message).toMatch(/the rest load at the next start/);
      expect(Object.keys(readManifest(root)?.partitions ?? {})).toEqual([`${YEAR}/GU`]);
      expect(lines.some((line) => line.msg === 'HMDA state-year published' && line.state === 'GU')).toBe(true);

      // Meanwhile readers hear what is loading, and nothing about commands.
      const service = createHmdaService({ ...hmdaServiceSettings(root), logger: silentLogger });
      try {
        service.progress.update(progress.get(), new Date());
        const error = (await service.preset('rates', { year: YEAR, state: 'VI' }).catch((caught: unknown) => caught)) as Error;
        expect(error.message).toBe(
          `No HMDA loan records for VI ${YEAR} are loaded on this server; it holds GU ${YEAR}. Loading ${YEAR} for every state is under way (1 of 3 states loaded so far).`,
        );
      } finally {
        await service.close();
      }
    });

    it('resumes after a restart with the states not yet published, and refuses the one that differs from the aggregates', async () => {
      const before = readManifest(root)?.partitions[`${YEAR}/GU`];
      const progress = new LoadProgress(root);
      const { logger, lines } = capturedLogger();
      const status = await runHmdaFirstLoad({ config: { ...hmdaConfig(root), sourceDir: mirror }, logger, progress, synthetic: true });
      expect(status).toMatchObject({ state: 'done', year: YEAR, states_total: 3, states_published: 2 });
      expect(status.states_failed.map((failure) => failure.state)).toEqual([bad]);
      expect(status.states_failed[0]?.reason).toMatch(
        new RegExp(`${YEAR} ${bad} action_taken 3: official aggregates say [\\d,]+ records, the loaded file has [\\d,]+`),
      );
      expect(status.message).toContain(`npm run sync -- hmda --years ${YEAR} --states ${bad}`);
      const manifest = readManifest(root);
      expect(Object.keys(manifest?.partitions ?? {}).sort()).toEqual(good.map((state) => `${YEAR}/${state}`));
      // GU was not loaded again.
      expect(manifest?.partitions[`${YEAR}/GU`]).toEqual(before);
      expect(lines.filter((line) => line.msg === 'HMDA state-year published').map((line) => line.state)).toEqual(['VI']);
      expect(lines.some((line) => line.msg === 'HMDA state-year not published' && line.state === bad && Number(line.level) === 40)).toBe(
        true,
      );
      // "Since" is the first load's, kept across the restart.
      expect(progress.get().since).toBe(new LoadProgress(root).get().since);

      const calibration = loadCalibration(SOURCE_DIR, YEAR);
      const service = createHmdaService({ ...hmdaServiceSettings(root), logger: silentLogger });
      try {
        const counts = await service.sql('SELECT state, action_taken, count(*) AS n FROM lar GROUP BY ALL ORDER BY ALL');
        for (const state of good) {
          const official = calibration.states[state]?.actionTaken ?? {};
          const loaded = Object.fromEntries(
            counts.rows.filter((row) => row.state === state).map((row) => [String(row.action_taken), row.n]),
          );
          expect(loaded).toEqual(Object.fromEntries(Object.entries(official).filter(([, n]) => n > 0)));
        }
      } finally {
        await service.close();
      }
    });
  });

  describe('from the publisher over HTTP', () => {
    let server: http.Server;
    let base: string;
    let requests: string[];
    let publisherDir: string;

    beforeAll(async () => {
      publisherDir = scratch('hmda-first-publisher');
      const calibration = loadCalibration(SOURCE_DIR, YEAR);
      const out = fs.createWriteStream(path.join(publisherDir, 'VI.csv'));
      await writeSyntheticLar(out, {
        year: YEAR,
        states: ['VI'],
        aggregates: calibration.states,
        counties: calibration.counties,
        scale: 1,
        seed: 5,
      });
      await new Promise<void>((resolve) => out.end(resolve));
      // Aggregates of a publisher that has only VI's records, so the load's plan is one state.
      fs.writeFileSync(path.join(publisherDir, 'state.json'), JSON.stringify({ VI: calibration.states.VI }));
      requests = [];
      server = http.createServer((req, res) => {
        requests.push(req.url ?? '');
        const url = new URL(req.url ?? '/', 'http://publisher');
        if (url.pathname === `/${YEAR}/state.json`) return void fs.createReadStream(path.join(publisherDir, 'state.json')).pipe(res);
        if (url.pathname === '/v2/data-browser-api/view/csv' && url.searchParams.get('states') === 'VI')
          return void fs.createReadStream(path.join(publisherDir, 'VI.csv')).pipe(res);
        res.statusCode = 404;
        res.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** fetch with the publishers' hosts answered by the local server. */
    const localFetch: typeof fetch = (input, init) =>
      fetch(String(input).replace(/^https:\/\/(ffiec\.cfpb\.gov|s3\.amazonaws\.com)/, base), init);

    it('streams each state file to disk, checks it and publishes it', async () => {
      const root = path.join(scratch('hmda-first-http'), 'hmda');
      const progress = new LoadProgress(root);
      const status = await runHmdaFirstLoad({
        config: { ...hmdaConfig(root), sourceDir: undefined },
        logger: silentLogger,
        progress,
        fetch: localFetch,
        synthetic: true,
      });
      expect(status).toMatchObject({ state: 'done', year: YEAR, states_total: 1, states_published: 1, states_failed: [] });
      expect(requests).toContain(`/${YEAR}/state.json`);
      expect(requests).toContain(`/v2/data-browser-api/view/csv?states=VI&years=${YEAR}`);
      expect(readManifest(root)?.partitions[`${YEAR}/VI`]?.sourceUrl).toBe(
        `https://ffiec.cfpb.gov/v2/data-browser-api/view/csv?states=VI&years=${YEAR}`,
      );
      expect(fs.readdirSync(path.join(root, '.staging'))).toEqual([]);
    });

    it('waits, without an error, when the publisher cannot be reached', async () => {
      const root = path.join(scratch('hmda-first-offline'), 'hmda');
      const unreachable: typeof fetch = () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } }));
      const status = await runHmdaFirstLoad({
        config: { ...hmdaConfig(root), sourceDir: undefined },
        logger: silentLogger,
        progress: new LoadProgress(root),
        fetch: unreachable,
        synthetic: true,
      });
      expect(status.state).toBe('waiting');
      expect(status.message).toMatch(
        /^The FFIEC cannot be reached \(https:\/\/ffiec\.cfpb\.gov\/\d{4}\/state\.json: download failed \(ENOTFOUND\)\); the HMDA load is tried again every hour\.$/,
      );
      expect(readManifest(root)).toBeUndefined();
    });
  });
});
