// `node scripts/launch.mjs scripts/request-files.ts [--data-dir DIR] [--repeat N]`: how many of the
// project's source files one warm request runs code in, for GET /api/v1/rates and for one MCP
// tools/call (get_mortgage_rates). The server runs in this process (startServer, its default
// configuration but for rate limits and syncing); V8's precise coverage counts the calls of every
// function between two readings, so a file counts when one of its functions ran while the request
// was answered. Each request is measured --repeat times (default 5), each reading alone; a file is
// listed when it ran in every one of them, so a timer that fires during one reading does not count.
// Only the main thread is read: the embedded database answers on a thread of its own (its files run
// there), and its work is not in these counts.
//
// Without --data-dir it syncs the rates datasets from MDS_SOURCE_DIR into a new scratch folder first.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig, PROJECT_ROOT } from '../api/config.ts';
import { createLogger } from '../api/platform/logger.ts';
import { openDatabase } from '../api/platform/db/open.ts';
import { startServer } from '../api/server.ts';

const RATES_DATASETS = ['pmms', 'optimal_blue', 'apor'];
const THIS_FILE = fileURLToPath(import.meta.url);

interface Probe {
  name: string;
  /** How long to wait after the last answer before the measured one (the answer lane keeps one for 1 s). */
  pauseMs: number;
  send(url: string): Promise<Response>;
}

const PROBES: Probe[] = [
  { name: 'GET /api/v1/rates, again within a second (the answer lane)', pauseMs: 0, send: (url) => fetch(`${url}/api/v1/rates`) },
  { name: 'GET /api/v1/rates, again after the lane forgot it', pauseMs: 1_100, send: (url) => fetch(`${url}/api/v1/rates`) },
  {
    name: 'MCP tools/call get_mortgage_rates',
    pauseMs: 0,
    send: (url) =>
      fetch(`${url}/api/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_mortgage_rates', arguments: {} },
        }),
      }),
  },
];

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** A scratch data folder with the rates datasets loaded from the mirror. */
function syncedDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-request-files-'));
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'sync.ts'), ...RATES_DATASETS], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`sync of ${RATES_DATASETS.join(', ')} exited with ${result.status}`);
  return dataDir;
}

type Coverage = { url: string; functions: { ranges: { count: number }[] }[] }[];

/** Project files (outside node_modules, this script aside) with a function called since the last reading. */
async function filesRunSinceLastReading(session: Session): Promise<Set<string>> {
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: Coverage };
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file:')) continue;
    const file = fileURLToPath(script.url);
    if (file === THIS_FILE || !file.startsWith(PROJECT_ROOT + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    if (script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0)) files.add(path.relative(PROJECT_ROOT, file));
  }
  return files;
}

/**
 * How many files the first answer of `probe` in this run ran code in, then the files one warm answer
 * ran code in, in every one of `repeat` readings.
 */
async function measure(session: Session, url: string, probe: Probe, repeat: number): Promise<{ first: number; warm: string[] }> {
  await sleep(probe.pauseMs);
  await filesRunSinceLastReading(session);
  await (await probe.send(url)).arrayBuffer();
  const first = (await filesRunSinceLastReading(session)).size;
  for (let warm = 0; warm < 3; warm++) await (await probe.send(url)).arrayBuffer();
  let common: Set<string> | undefined;
  for (let round = 0; round < repeat; round++) {
    await sleep(probe.pauseMs);
    await filesRunSinceLastReading(session); // resets the counters
    const response = await probe.send(url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${probe.name} answered ${response.status}`);
    const files = await filesRunSinceLastReading(session);
    common = common === undefined ? files : new Set([...common].filter((file) => files.has(file)));
  }
  return { first, warm: [...(common ?? [])].sort() };
}

/**
 * Waits until a second passes with no project code run (start-up work such as the search index's
 * refresh has ended), at most a minute; returns what still ran in the last second.
 */
async function settle(session: Session): Promise<string[]> {
  let last: string[] = [];
  for (let second = 0; second < 60; second++) {
    await filesRunSinceLastReading(session);
    await sleep(1_000);
    last = [...(await filesRunSinceLastReading(session))].sort();
    if (last.length === 0) break;
  }
  return last;
}

async function main(): Promise<void> {
  const repeat = Number(option('--repeat') ?? 5);
  const dataDir = option('--data-dir') ?? syncedDataDir();
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SYNC_ON_START: 'false',
    SYNC_DAILY: 'false',
    RATE_LIMIT_ANON_PER_MINUTE: '0',
    RATE_LIMIT_KEY_PER_MINUTE: '0',
    RATE_LIMIT_PER_HOUR: '0',
  });
  // The access log is written as in production (its code runs per request), to nowhere.
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  const logger = createLogger(config.LOG_LEVEL, discard);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const running = await startServer(config, logger, openDatabase(config, logger));
  try {
    const idle = await settle(session);
    process.stdout.write(
      `idle second before measuring: ${idle.length} project files ran code${idle.length ? ` (${idle.join(', ')})` : ''}\n`,
    );
    for (const probe of PROBES) {
      const { first, warm } = await measure(session, running.url, probe, repeat);
      process.stdout.write(`\n${probe.name}: ${warm.length} project files ran code (in all ${repeat} readings; `);
      process.stdout.write(`its first answer in this run: ${first})\n`);
      for (const file of warm) process.stdout.write(`  ${file}\n`);
    }
  } finally {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
    await running.close();
  }
}

await main();
