// `npm run soak [-- --seconds 60 --connections 1000 --write]`: the service on the mirror's data with
// rate limits on (the defaults), 1,000 concurrent connections of mixed traffic (REST, static pages,
// feeds, MCP calls, a little /ask) for 60 s after a warm-up. Passes when no response is an error
// other than 429 (no 5xx, no 4xx but 429, no connection error or timeout) and memory is flat: RSS over
// the last 10 s of load within 5% of RSS over the last 10 s of the warm-up (the target of
// docs/operations.md, "Memory"). Loopback only; stops by itself.
//
// Each of the two levels is the median of the 1-s RSS samples in its 10 s, not one reading: a full
// collection of the main heap holds 25–40 MiB more for under half a second while it moves objects
// (sampled every 0.5 s under this load: 495 -> 534 -> 506 MiB), and a single reading can land on
// such a moment. The peak is reported beside them, spikes included.
//
// Clients come from many addresses (X-Forwarded-For, believed from loopback with TRUST_PROXY), the
// way a public service sees them, so the per-IP limits are exercised: most requests pass, the
// unlucky addresses get 429s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error -- untyped CommonJS module (see scripts/bench/load.ts)
import autocannon from 'autocannon';
import { PROJECT_ROOT } from '../api/config.ts';
import { SLOW_REQUEST_MS } from '../api/platform/http/request-context.ts';
import { prepareDataDir, startBenchService } from './bench/service.ts';
import { currentRssMb, median } from './bench/load.ts';
import { pinSideBySide } from './lib/cpu-affinity.ts';
import { isoDay } from '../api/platform/dates.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const SECONDS = option('seconds', 60);
const WARM_UP_SECONDS = option('warm-up', 40);
const CONNECTIONS = option('connections', 1_000);
/** Distinct client addresses: enough that most stay under 20 requests a minute. */
const ADDRESSES = option('addresses', 4_000);
const write = args.includes('--write');
/** Listening sockets of the service (see docs/operations.md, "Many concurrent clients"). */
const ACCEPT_SOCKETS = 8;
/** Service on CPU 0, load generator on the others (off with --no-pin). */
const pin = !args.includes('--no-pin');
/** Seconds of RSS samples whose median is a level (see the header). */
const LEVEL_SECONDS = 10;
/** Largest change of RSS between the two levels that still counts as flat. */
const FLAT_WITHIN = 0.05;
const log = (line: string) => process.stderr.write(`soak: ${line}\n`);

const mcpCall = (name: string, args: Record<string, unknown>) => ({
  method: 'POST',
  path: '/api/mcp',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

// One cycle of the mix each connection walks through: mostly REST and pages, some MCP, one /ask.
const MIX: { method?: string; path: string; headers?: Record<string, string>; body?: string }[] = [
  { path: '/api/v1/rates' },
  { path: '/' },
  { path: '/api/v1/rates?state=TX&fico=2&format=simple' },
  { path: '/api/v1/loan-limits?state=CA&county=Los%20Angeles&loan_type=conforming' },
  { path: '/glossary/escrow' },
  { path: '/api/v1/calendar' },
  { path: '/feed.xml' },
  mcpCall('get_mortgage_rates', {}),
  { path: '/api/v1/escrow?state=IL&closing_month=3' },
  { path: '/api/v1/search?query=escrow' },
  { path: '/docs/api' },
  { path: '/news-feed.xml' },
  mcpCall('get_loan_limits', { state: 'CO', county: 'Denver', loan_type: 'conforming' }),
  { path: '/api/v1/loan-limits?state=NY&county=Kings' },
  { path: '/rates' },
  { path: '/api/v1/statistics?category=market_overview' },
  mcpCall('lookup_glossary_term', { term: 'escrow' }),
  { path: '/api/v1/rates?state=CA&product_type=fha' },
  {
    method: 'POST',
    path: '/api/v1/ask',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ message: 'What is an escrow cushion?' }),
  },
  { path: '/api/v1/openapi.json' },
];

const randomAddress = () => {
  const n = Math.floor(Math.random() * ADDRESSES);
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

interface SoakResult {
  total: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  errorKinds: Record<string, number>;
  /** Client timeouts by the request that timed out, and by the 10-s window they happened in. */
  timeoutsByRequest: Record<string, number>;
  timeoutsByWindow: Record<string, number>;
}

/** The part of autocannon's per-connection client the timeout diagnosis reads (lib/httpClient.js). */
interface AutocannonClient {
  on(event: 'timeout', listener: () => void): void;
  requestIterator: { currentRequestIndex: number; requests: { method?: string; path: string }[] };
}

async function load(url: string, seconds: number): Promise<SoakResult> {
  const errorKinds = new Map<string, number>();
  const count = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);
  const timeoutsByRequest: Record<string, number> = {};
  const timeoutsByWindow: Record<string, number> = {};
  const started = Date.now();
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    // autocannon reports a timeout after it has already moved the connection on to its next
    // request, so the one that timed out is the one before.
    setupClient: (client: AutocannonClient) =>
      client.on('timeout', () => {
        const { currentRequestIndex, requests } = client.requestIterator;
        const request = requests[(currentRequestIndex - 1 + requests.length) % requests.length]!;
        count(timeoutsByRequest, `${request.method ?? 'GET'} ${request.path}`);
        count(timeoutsByWindow, `${Math.floor((Date.now() - started) / 10_000) * 10} s`);
      }),
    requests: MIX.map((request) => ({
      ...request,
      setupRequest: (req: { headers?: Record<string, string> }) => ({
        ...req,
        headers: { ...req.headers, 'X-Forwarded-For': randomAddress() },
      }),
    })),
  });
  // What went wrong, by kind, for the report (a count alone says nothing about the cause).
  instance.on('reqError', (error: Error & { code?: string }) =>
    errorKinds.set(error.code ?? error.message, (errorKinds.get(error.code ?? error.message) ?? 0) + 1),
  );
  const result = (await instance) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    statusCodeStats: Record<string, { count: number }>;
    errors: number;
    timeouts: number;
  };
  return {
    total: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count])),
    errors: result.errors,
    timeouts: result.timeouts,
    errorKinds: Object.fromEntries(errorKinds),
    timeoutsByRequest,
    timeoutsByWindow,
  };
}

async function main(): Promise<number> {
  const dataDir = prepareDataDir(log);
  const service = await startBenchService(dataDir, {
    // The documented defaults, on: 20/min per address without a key, 1,000/hour.
    RATE_LIMIT_ANON_PER_MINUTE: '20',
    RATE_LIMIT_KEY_PER_MINUTE: '100',
    RATE_LIMIT_PER_HOUR: '1000',
    TRUST_PROXY: 'loopback',
    // As docs/operations.md advises for many concurrent clients: eight sockets accept the opening burst of
    // 1,000 connections while the process is already busy (docs/benchmarks-history.md, item 12).
    ACCEPT_SOCKETS: String(ACCEPT_SOCKETS),
  });
  // Without pinning, autocannon and the service take turns on the same two cores, and the load
  // generator's own work slows the service it measures.
  const pinned = pin && pinSideBySide([service.pid]);
  log(pinned ? `service pinned to CPU 0, load generator to CPU 1-${os.cpus().length - 1}` : 'CPUs not pinned');
  const rss: { at: number; mb: number }[] = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    const mb = currentRssMb(service.pid);
    if (mb !== undefined) rss.push({ at: (Date.now() - started) / 1000, mb });
  }, 1_000);
  try {
    // One load generator for warm-up and soak alike: a second autocannon run in the same process
    // reported phantom timeouts on its first requests (the service had received none of them).
    log(`${WARM_UP_SECONDS} s warm-up, then ${SECONDS} s, at ${CONNECTIONS} connections`);
    const warmUpMark = setTimeout(
      () => log(`warm-up done; RSS ${levelBefore(rss, (Date.now() - started) / 1000)} MiB (median of its last ${LEVEL_SECONDS} s)`),
      WARM_UP_SECONDS * 1_000,
    );
    const soak = await load(service.url, WARM_UP_SECONDS + SECONDS);
    clearTimeout(warmUpMark);
    const loadEnded = (Date.now() - started) / 1000;
    const afterWarmUp = levelBefore(rss, WARM_UP_SECONDS);
    const atEnd = levelBefore(rss, loadEnded);
    const peak = Math.max(...rss.map((sample) => sample.mb));
    const health = await fetch(`${service.url}/healthz`).then(
      (response) => response.status,
      () => 0,
    );

    const bad = Object.entries(soak.statuses).filter(([code]) => !(/^[23]\d\d$/.test(code) || code === '429'));
    // autocannon's `errors` already include its `timeouts`.
    const badCount = bad.reduce((sum, [, count]) => sum + count, 0) + soak.errors;
    const growth = (atEnd - afterWarmUp) / afterWarmUp;
    const flat = Math.abs(growth) <= FLAT_WITHIN;
    const passed = badCount === 0 && flat && health === 200;
    const serviceLog = service.output().trim();
    // The service's side of any client timeout: it warns about every response slower than 10 s.
    const slowResponses = serviceLog.split('\n').filter((line) => line.includes('"slow request"')).length;
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${os.platform()} ${os.release()}`;
    const summary = [
      `Run on ${isoDay(new Date())} — ${machine}.`,
      `${CONNECTIONS} connections for ${WARM_UP_SECONDS} s of warm-up then ${SECONDS} s (figures cover both), rate limits on (20/min per address, ${ADDRESSES.toLocaleString('en-US')} addresses), mix of ${MIX.length} requests (REST, pages, feeds, MCP, /ask); ACCEPT_SOCKETS=${ACCEPT_SOCKETS}; ${pinned ? `service pinned to CPU 0, load generator to the other ${os.cpus().length - 1}` : 'CPUs not pinned'}.`,
      '',
      `RSS levels are medians of the 1-s samples over the last ${LEVEL_SECONDS} s of the warm-up and of the load; flat means within ± ${FLAT_WITHIN * 100}%.`,
      '',
      '| requests | req/s | p50 ms | p99 ms | 2xx/3xx | 429 | other statuses | connection errors | RSS after warm-up | RSS at end | peak RSS | result |',
      '|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|',
      `| ${soak.total} | ${Math.round(soak.requestsPerSecond)} | ${soak.p50Ms} | ${soak.p99Ms} | ${Object.entries(soak.statuses)
        .filter(([code]) => /^[23]/.test(code))
        .reduce(
          (sum, [, count]) => sum + count,
          0,
        )} | ${soak.statuses['429'] ?? 0} | ${bad.map(([code, count]) => `${code}: ${count}`).join(', ') || 'none'} | ${soak.errors} (${soak.timeouts} timeouts) | ${afterWarmUp} MiB | ${atEnd} MiB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%) | ${peak} MiB | ${passed ? 'pass' : 'FAIL'} |`,
      '',
      `Responses the service itself took more than ${SLOW_REQUEST_MS / 1000} s to send (its slow-request warnings): ${slowResponses}.`,
      ...(soak.timeouts > 0
        ? [
            '',
            `Client timeouts by request of the mix: ${describeCounts(soak.timeoutsByRequest)}; by time since the start: ${describeCounts(soak.timeoutsByWindow)}.`,
          ]
        : []),
    ].join('\n');
    const trajectory = rss
      .filter((_, index) => index % 10 === 9)
      .map((sample) => `${Math.round(sample.at)} s: ${sample.mb}`)
      .join(', ');
    process.stdout.write(`\n${summary}\n\nRSS (MiB) every 10 s: ${trajectory}\n`);
    if (!flat) log(`memory not flat: ${afterWarmUp} → ${atEnd} MiB`);
    if (badCount > 0)
      log(
        `errors other than 429: ${badCount} (${soak.errors} connection errors, of which ${soak.timeouts} timeouts: ${JSON.stringify(soak.errorKinds)})`,
      );
    if (!passed && serviceLog) log(`the service said (last lines):\n${serviceLog.split('\n').slice(-20).join('\n')}`);
    if (write) writeSoakSection(path.join(PROJECT_ROOT, 'BENCHMARKS.md'), summary);
    return passed ? 0 : 1;
  } finally {
    clearInterval(sampler);
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The median RSS of the samples in the LEVEL_SECONDS before `at` (seconds since the load started). */
function levelBefore(samples: readonly { at: number; mb: number }[], at: number): number {
  const window = samples.filter((sample) => sample.at > at - LEVEL_SECONDS && sample.at <= at).map((sample) => sample.mb);
  return window.length === 0 ? Number.NaN : Math.round(median(window));
}

const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([key, count]) => `${key}: ${count}`)
    .join(', ');

const START = '<!-- soak:start -->';
const END = '<!-- soak:end -->';

function writeSoakSection(file: string, summary: string): void {
  const block = `${START}\n${summary}\n${END}`;
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const updated = existing.includes(START)
    ? existing.replace(new RegExp(`${START}[\\s\\S]*?${END}`), block)
    : `${existing.trimEnd()}\n\n## Soak\n\n${block}\n`;
  fs.writeFileSync(file, updated);
}

process.exit(await main());
