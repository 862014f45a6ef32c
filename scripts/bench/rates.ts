// GET /api/v1/rates under load (50 connections) beside the bare-Express hello-world measured in the
// same run: the default record, the simple form, and a mix of 40 parameter sets (cache misses first).
// Target: >= 0.80 of Express's throughput with p99 under 20 ms.
import type { BenchModule, BenchRow } from './types.ts';
import { peakRssMb, runLoad } from './load.ts';

const MIX = ['CO', 'TX', 'CA', 'NY', 'FL'].flatMap((state) =>
  ['1', '2'].flatMap((fico) => ['conventional', 'fha'].flatMap((product) => ['detailed', 'simple'].map((format) =>
    `/api/v1/rates?state=${state}&fico=${fico}&product_type=${product}&format=${format}`))),
);

export const run: BenchModule = async ({ service, baselines, seconds }) => {
  const express = baselines.express.requestsPerSecond;
  const warm = await fetch(`${service.url}/api/v1/rates`);
  if (warm.status !== 200) throw new Error(`GET /api/v1/rates answered ${warm.status}: are pmms and optimal_blue synced?`);

  const cases: { name: string; url: string; requests?: { path: string }[]; target: boolean }[] = [
    { name: 'GET /api/v1/rates', url: `${service.url}/api/v1/rates`, target: true },
    { name: 'GET /api/v1/rates?state=TX&fico=2&format=simple', url: `${service.url}/api/v1/rates?state=TX&fico=2&format=simple`, target: false },
    { name: `GET /api/v1/rates (mix of ${MIX.length} parameter sets)`, url: service.url, requests: MIX.map((path) => ({ path })), target: false },
  ];
  const rows: BenchRow[] = [];
  for (const { name, url, requests, target } of cases) {
    const result = await runLoad({ url, connections: 50, durationSeconds: seconds, ...(requests ? { requests } : {}) });
    const met = result.requestsPerSecond >= 0.8 * express && result.p99Ms < 20;
    rows.push({
      family: 'rates',
      name,
      requestsPerSecond: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      errors: result.errors + result.non2xx,
      peakRssMb: peakRssMb(service.pid),
      baseline: 'express hello',
      ratio: result.requestsPerSecond / express,
      ...(target ? { target: '>= 0.80 of express hello, p99 < 20 ms', met } : {}),
    });
  }
  return rows;
};
