// The service under benchmark: synced from the mirror (MDS_SOURCE_DIR) into a scratch DATA_DIR,
// then started as its own process in its default configuration (LOG_LEVEL info: one access-log
// line per request, written to a file as in production) except that rate limits are off and
// nothing syncs, so the load generator measures the service and nothing else. Started once per
// `npm run bench` and shared by the families.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../api/config.ts';
import { freePort, spawnServer, waitForOk, type ChildServer } from '../lib/child-server.ts';

export interface BenchService {
  url: string;
  pid: number;
  dataDir: string;
  /** The tail of the service's own output (its log, access lines included). */
  output(): string;
  stop(): Promise<void>;
}

/** What the bench changes from the default configuration (LOG_LEVEL and the rest stay default). */
export const BENCH_SERVICE_ENV = {
  RATE_LIMIT_ANON_PER_MINUTE: '0',
  RATE_LIMIT_KEY_PER_MINUTE: '0',
  RATE_LIMIT_PER_HOUR: '0',
  SYNC_ON_START: 'false',
  SYNC_DAILY: 'false',
};

export function sourceDir(): string {
  return path.resolve(process.env.MDS_SOURCE_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data'));
}

/** Syncs the default datasets into a new data folder; returns its path. */
export function prepareDataDir(log: (line: string) => void): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-bench-'));
  log(`syncing the mirror (${sourceDir()}) into ${dataDir}`);
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'sync.ts')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, MDS_SOURCE_DIR: sourceDir(), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) log(`sync exited with ${result.status}: some families may report errors`);
  return dataDir;
}

export async function startBenchService(dataDir: string, extraEnv: Record<string, string> = {}): Promise<BenchService> {
  // The port is chosen here: the log goes to a file, not through the pipe the ready line is read from.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server: ChildServer = await spawnServer(path.join(PROJECT_ROOT, 'api', 'main.ts'), {
    env: { ...BENCH_SERVICE_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...extraEnv },
    logFile: path.join(dataDir, 'service.log'),
  });
  await waitForOk(`${url}/healthz`);
  // Start-up work (the search-index refresh) would otherwise run during the first measurement.
  await waitForQuiet(server.child.pid ?? 0);
  return {
    url,
    pid: server.child.pid ?? 0,
    dataDir,
    output: () => server.output(),
    async stop() {
      await server.stop();
    },
  };
}

/** CPU seconds (user + system) a process has used, from /proc, or undefined where /proc is absent. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

/** Waits until the process uses under 5% of a core over a second (at most `maxMs`). */
export async function waitForQuiet(pid: number, maxMs = 60_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let previous = cpuSeconds(pid);
  while (previous !== undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = cpuSeconds(pid);
    if (now === undefined || now - previous < 0.05) return;
    previous = now;
  }
}
