// POST /api/v1/ask with the built-in answerer (no model configured) over HTTP: time to the first
// answer chunk (target p50 < 100 ms) and to the end of the stream (target p50 < 500 ms), for a
// handful of question kinds, then throughput of a mix of them at 20 connections.
import type { BenchModule, BenchRow } from './types.ts';
import { peakRssMb, runLoad } from './load.ts';
import { percentile } from './latency.ts';

export const QUESTIONS: { kind: string; message: string }[] = [
  { kind: 'rates', message: 'What are mortgage rates today in Texas?' },
  { kind: 'loan limits', message: 'What is the conforming loan limit in Los Angeles County, California?' },
  { kind: 'glossary', message: 'What is an escrow cushion?' },
  { kind: 'escrow', message: 'How many months of escrow do I need at closing in Illinois in March?' },
  { kind: 'calendar', message: 'When is the next Fed meeting?' },
];
const FIRST_CHUNK_TARGET_MS = 100;
const FULL_ANSWER_TARGET_MS = 500;

/** Times one answer: to the first `chunk` message and to the end of the stream. */
async function timeAnswer(url: string, message: string): Promise<{ firstChunkMs: number; totalMs: number } | undefined> {
  const started = performance.now();
  const response = await fetch(`${url}/api/v1/ask`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  if (response.status !== 200 || !response.body) return undefined;
  const decoder = new TextDecoder();
  let seen = '';
  let firstChunkMs: number | undefined;
  for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (firstChunkMs === undefined) {
      seen += decoder.decode(part, { stream: true });
      if (seen.includes('"type":"chunk"')) firstChunkMs = performance.now() - started;
    }
  }
  const totalMs = performance.now() - started;
  return firstChunkMs === undefined ? undefined : { firstChunkMs, totalMs };
}

export const run: BenchModule = async ({ service, baselines, seconds, quick }) => {
  const samples = quick ? 15 : 60;
  const rows: BenchRow[] = [];
  const allFirst: number[] = [];
  const allTotal: number[] = [];
  for (const { kind, message } of QUESTIONS) {
    for (let i = 0; i < 3; i += 1) await timeAnswer(service.url, message); // warm-up
    const first: number[] = [];
    const total: number[] = [];
    let errors = 0;
    for (let i = 0; i < samples; i += 1) {
      const timing = await timeAnswer(service.url, message).catch(() => undefined);
      if (!timing) errors += 1;
      else {
        first.push(timing.firstChunkMs);
        total.push(timing.totalMs);
      }
    }
    first.sort((a, b) => a - b);
    total.sort((a, b) => a - b);
    allFirst.push(...first);
    allTotal.push(...total);
    rows.push({
      family: 'ask',
      name: `${kind}: first chunk / full answer (p50 ${percentile(first, 0.5).toFixed(1)} / ${percentile(total, 0.5).toFixed(1)} ms)`,
      p50Ms: percentile(total, 0.5),
      p99Ms: percentile(total, 0.99),
      errors,
      peakRssMb: peakRssMb(service.pid),
    });
  }
  allFirst.sort((a, b) => a - b);
  allTotal.sort((a, b) => a - b);
  const firstP50 = percentile(allFirst, 0.5);
  const totalP50 = percentile(allTotal, 0.5);
  rows.push(
    {
      family: 'ask',
      name: `time to first chunk, all ${QUESTIONS.length} kinds`,
      p50Ms: firstP50,
      p99Ms: percentile(allFirst, 0.99),
      target: `p50 < ${FIRST_CHUNK_TARGET_MS} ms`,
      met: firstP50 < FIRST_CHUNK_TARGET_MS,
    },
    {
      family: 'ask',
      name: `full answer, all ${QUESTIONS.length} kinds`,
      p50Ms: totalP50,
      p99Ms: percentile(allTotal, 0.99),
      target: `p50 < ${FULL_ANSWER_TARGET_MS} ms`,
      met: totalP50 < FULL_ANSWER_TARGET_MS,
    },
  );

  const load = await runLoad({
    url: service.url,
    connections: 20,
    durationSeconds: seconds,
    requests: QUESTIONS.map(({ message }) => ({
      method: 'POST',
      path: '/api/v1/ask',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message }),
    })),
  });
  rows.push({
    family: 'ask',
    name: `POST /api/v1/ask, mix of ${QUESTIONS.length} kinds, 20 connections`,
    requestsPerSecond: load.requestsPerSecond,
    p50Ms: load.p50Ms,
    p99Ms: load.p99Ms,
    errors: load.errors + load.non2xx,
    peakRssMb: peakRssMb(service.pid),
    baseline: 'express hello',
    ratio: load.requestsPerSecond / baselines.express.requestsPerSecond,
  });
  return rows;
};
