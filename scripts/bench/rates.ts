// GET /api/v1/rates under load (50 connections) against the bare-Express hello-world. The target
// (>= 0.80 of Express's throughput, p99 under 20 ms) is judged on rounds that load Express and the
// service in turn, so drift on a shared machine (another process, a busy neighbour) hits both alike:
// the ratio is the median of the per-round ratios. Then the simple form and a mix of 40 parameter
// sets (cache misses first), each beside the run's Express baseline.
import type { BenchModule, BenchRow } from './types.ts';
import { median, peakRssMb, runLoad, serviceRow, type LoadResult } from './load.ts';
import { startBaseline } from './baseline.ts';

const MIX = ['CO', 'TX', 'CA', 'NY', 'FL'].flatMap((state) =>
  ['1', '2'].flatMap((fico) => ['conventional', 'fha'].flatMap((product) => ['detailed', 'simple'].map((format) =>
    `/api/v1/rates?state=${state}&fico=${fico}&product_type=${product}&format=${format}`))),
);

export const run: BenchModule = async (context) => {
  const { service, seconds, quick } = context;
  const warm = await fetch(`${service.url}/api/v1/rates`);
  if (warm.status !== 200) throw new Error(`GET /api/v1/rates answered ${warm.status}: are pmms and optimal_blue synced?`);
  await warm.arrayBuffer();

  const rounds = quick ? 2 : 3;
  const express = await startBaseline('express');
  const expressRuns: LoadResult[] = [];
  const ratesRuns: LoadResult[] = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      expressRuns.push(await runLoad({ url: express.url, connections: 50, durationSeconds: seconds }));
      ratesRuns.push(await runLoad({ url: `${service.url}/api/v1/rates`, connections: 50, durationSeconds: seconds }));
    }
  } finally {
    await express.stop();
  }
  const ratios = ratesRuns.map((result, index) => result.requestsPerSecond / expressRuns[index]!.requestsPerSecond);
  const ratio = median(ratios);
  const p99Ms = median(ratesRuns.map((result) => result.p99Ms));
  const rows: BenchRow[] = [
    {
      family: 'rates',
      name: `GET /api/v1/rates — ${rounds} rounds, each after an express hello round (ratios ${ratios.map((value) => value.toFixed(2)).join(', ')}; express ${expressRuns.map((result) => Math.round(result.requestsPerSecond)).join(', ')} req/s)`,
      requestsPerSecond: median(ratesRuns.map((result) => result.requestsPerSecond)),
      p50Ms: median(ratesRuns.map((result) => result.p50Ms)),
      p99Ms,
      errors: ratesRuns.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
      peakRssMb: peakRssMb(service.pid),
      baseline: 'express hello (same rounds)',
      ratio,
      target: '>= 0.80 of express hello, p99 < 20 ms',
      met: ratio >= 0.8 && p99Ms < 20,
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
