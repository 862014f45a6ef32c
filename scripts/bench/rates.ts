// GET /api/v1/rates under load (50 connections), in the service's default configuration (access
// log on), against a bare Express app answering the same body bytes. The target (>= 0.85 of that
// app's throughput, p99 under 20 ms) is judged on rounds that load both at the same time, on one
// CPU (see pinSideBySide), so drift on a shared machine hits both alike: the ratio is the median of
// the per-round ratios; latency comes from a run of the service alone. Then the simple form and a
// mix of 40 parameter sets (cache misses first), each beside the run's Express hello.
import type { BenchModule, BenchRow } from './types.ts';
import { median, peakRssMb, runLoad, runPair, serviceRow, type LoadResult } from './load.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBodyBaseline } from './baseline.ts';
import { BODY_BASELINE } from './rest.ts';
import { pinSideBySide, unpin } from '../lib/cpu-affinity.ts';

const MIX = ['CO', 'TX', 'CA', 'NY', 'FL'].flatMap((state) =>
  ['1', '2'].flatMap((fico) =>
    ['conventional', 'fha'].flatMap((product) =>
      ['detailed', 'simple'].map((format) => `/api/v1/rates?state=${state}&fico=${fico}&product_type=${product}&format=${format}`),
    ),
  ),
);

export const run: BenchModule = async (context) => {
  const { service, seconds, quick } = context;
  const warm = await fetch(`${service.url}/api/v1/rates`);
  if (warm.status !== 200) throw new Error(`GET /api/v1/rates answered ${warm.status}: are pmms and optimal_blue synced?`);
  const bodyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mds-bench-rates-')), 'body');
  fs.writeFileSync(bodyFile, Buffer.from(await warm.arrayBuffer()));

  const rounds = quick ? 2 : 5;
  const roundSeconds = 3;
  const express = await startBodyBaseline(bodyFile, warm.headers.get('content-type') ?? 'application/json');
  const expressRuns: LoadResult[] = [];
  const ratesRuns: LoadResult[] = [];
  const ratesLoad = () => runLoad({ url: `${service.url}/api/v1/rates`, connections: 50, durationSeconds: roundSeconds });
  const expressLoad = () => runLoad({ url: `${express.url}/`, connections: 50, durationSeconds: roundSeconds });
  let sideBySide: boolean;
  try {
    await Promise.all([ratesLoad(), expressLoad()]); // warm-up: V8 optimises both for a while
    sideBySide = pinSideBySide([service.pid, express.pid]);
    for (let round = 0; round < rounds; round += 1) {
      const [expressRun, ratesRun] = await runPair(sideBySide, expressLoad, ratesLoad);
      expressRuns.push(expressRun);
      ratesRuns.push(ratesRun);
    }
  } finally {
    unpin([service.pid, express.pid]);
    await express.stop();
    fs.rmSync(path.dirname(bodyFile), { recursive: true, force: true });
  }
  const alone = await runLoad({ url: `${service.url}/api/v1/rates`, connections: 50, durationSeconds: seconds });
  const ratios = ratesRuns.map((result, index) => result.requestsPerSecond / expressRuns[index]!.requestsPerSecond);
  const ratio = median(ratios);
  const rows: BenchRow[] = [
    {
      family: 'rates',
      name: `GET /api/v1/rates — ratio: median of ${rounds} rounds of ${roundSeconds} s ${sideBySide ? `at the same time as ${BODY_BASELINE}, both on one CPU` : `each after a ${BODY_BASELINE} round`} (${ratios.map((value) => value.toFixed(2)).join(', ')}); req/s and latency: the service alone`,
      requestsPerSecond: alone.requestsPerSecond,
      p50Ms: alone.p50Ms,
      p99Ms: alone.p99Ms,
      errors: [...ratesRuns, alone].reduce((sum, result) => sum + result.errors + result.non2xx, 0),
      peakRssMb: peakRssMb(service.pid),
      baseline: `${BODY_BASELINE} (same rounds)`,
      ratio,
      target: `>= 0.85 of ${BODY_BASELINE}, p99 < 20 ms`,
      met: ratio >= 0.85 && alone.p99Ms < 20,
    },
  ];

  const others: { name: string; url: string; requests?: { path: string }[] }[] = [
    { name: 'GET /api/v1/rates?state=TX&fico=2&format=simple', url: `${service.url}/api/v1/rates?state=TX&fico=2&format=simple` },
    { name: `GET /api/v1/rates (mix of ${MIX.length} parameter sets)`, url: service.url, requests: MIX.map((path) => ({ path })) },
  ];
  for (const { name, url, requests } of others) {
    const result = await runLoad({ url, connections: 50, durationSeconds: seconds, ...(requests ? { requests } : {}) });
    rows.push(serviceRow('rates', name, result, context));
  }
  return rows;
};
