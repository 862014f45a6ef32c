// One load measurement with autocannon against a URL, and the peak memory of the process serving
// it (read from /proc, so the load generator's own memory is not counted).
import fs from 'node:fs';
import type { BenchContext } from './context.ts';
import type { BenchRow } from './types.ts';
import type { LoadResult } from './load-result.ts';
// autocannon ships no types; the shape used here is documented in its README ("Results").
// @ts-expect-error -- untyped CommonJS module
import autocannon from 'autocannon';

export type { LoadResult } from './load-result.ts';

export interface LoadOptions {
  url: string;
  connections?: number;
  durationSeconds?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Requests cycled through instead of one URL (paths relative to `url`). */
  requests?: { method?: string; path: string; headers?: Record<string, string>; body?: string }[];
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = (await autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? 10,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    requests: options.requests,
  })) as AutocannonResult;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/**
 * Two loads at the same time when their services run side by side (see pinSideBySide), else one
 * after the other; the results in the order given.
 */
export async function runPair(
  sideBySide: boolean,
  first: () => Promise<LoadResult>,
  second: () => Promise<LoadResult>,
): Promise<[LoadResult, LoadResult]> {
  if (sideBySide) return Promise.all([first(), second()]);
  const firstResult = await first();
  return [firstResult, await second()];
}

/** The middle value (the mean of the two middle ones for an even count): robust to one noisy run. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Peak resident set size of a process in MiB (VmHWM), or undefined where /proc is absent. */
export function peakRssMb(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+)\s+kB/.exec(status);
    return match?.[1] ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time a process has used so far in µs (user + system, /proc/<pid>/stat), or undefined. */
export function cpuMicros(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th,
    // in clock ticks of 1/100 s on Linux.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** Current resident set size of a process in MiB (VmRSS). */
export function currentRssMb(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return match?.[1] ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** A load result as a table row for the service under test, beside the same run's Express baseline. */
export function serviceRow(family: string, name: string, result: LoadResult, context: BenchContext): BenchRow {
  return {
    family,
    name,
    requestsPerSecond: result.requestsPerSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.errors + result.non2xx,
    peakRssMb: peakRssMb(context.service.pid),
    baseline: 'express hello',
    ratio: result.requestsPerSecond / context.baselines.express.requestsPerSecond,
  };
}
