// `npm run bench [family ...] [--quick] [--write]`: measures every endpoint family against two
// baselines measured in the same run (bare Node `http`, bare Express), prints one table, and with
// --write records it in BENCHMARKS.md with the machine it ran on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../api/config.ts';
import { peakRssMb, runLoad, type LoadResult } from './bench/load.ts';
import { prepareDataDir, startBenchService } from './bench/service.ts';
import { ensureSiteBuilt } from './site-build.ts';
import { prepareDatabaseTemplate } from './lib/database-template.ts';
import { BASELINE_NAMES, startBaseline, type BaselineKind } from './bench/baseline.ts';
import type { BenchModule, BenchRow } from './bench/types.ts';
import type { BenchContext } from './bench/context.ts';
import { formatTable, writeBenchmarksFile } from './bench/report.ts';

const ALL_FAMILIES = [
  'rest',
  'rates',
  'limits',
  'static',
  'mcp',
  'ask',
  'search',
  'search-corpus',
  'hmda',
  'series',
  'analysis',
  'lifecycle',
];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const write = args.includes('--write');
const requested = args.filter((arg) => !arg.startsWith('--'));
const families = requested.length > 0 ? requested : ALL_FAMILIES;
const seconds = quick ? 3 : 10;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function measureBaseline(kind: BaselineKind): Promise<{ row: BenchRow; result: LoadResult }> {
  const server = await startBaseline(kind);
  try {
    const result = await runLoad({ url: server.url, connections: 50, durationSeconds: seconds });
    return {
      result,
      row: {
        family: 'baseline',
        name: BASELINE_NAMES[kind],
        requestsPerSecond: result.requestsPerSecond,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        errors: result.errors + result.non2xx,
        peakRssMb: peakRssMb(server.pid),
      },
    };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const unknown = families.filter((family) => !fs.existsSync(path.join(PROJECT_ROOT, 'scripts', 'bench', `${family}.ts`)));
  if (unknown.length > 0) {
    log(`unknown families: ${unknown.join(', ')}; known: ${ALL_FAMILIES.join(', ')}`);
    process.exit(2);
  }
  log(`families: ${families.join(', ')}${quick ? ' (quick)' : ''}`);
  // The default configuration is what `npm start` serves: the site built. Without dist/ the service
  // serves the API alone and renders no page ahead, which reads ~110 MiB lighter when idle.
  ensureSiteBuilt(log);
  // And a new data folder starts from the empty database made ahead, as under `npm start`.
  prepareDatabaseTemplate(log);
  const node = await measureBaseline('node');
  const express = await measureBaseline('express');
  const rows: BenchRow[] = [
    node.row,
    { ...express.row, baseline: 'node http hello', ratio: express.result.requestsPerSecond / node.result.requestsPerSecond },
  ];

  const dataDir = prepareDataDir(log);
  const service = await startBenchService(dataDir);
  const context: BenchContext = { quick, seconds, service, baselines: { node: node.result, express: express.result } };
  let failed = false;
  try {
    for (const family of families) {
      log(`running ${family}`);
      try {
        const module = (await import(`./bench/${family}.ts`)) as { run: BenchModule };
        rows.push(...(await module.run(context)));
      } catch (error) {
        failed = true;
        rows.push({ family, name: '(failed)', note: (error as Error).message.split('\n')[0] ?? 'failed' });
      }
    }
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${os.platform()} ${os.release()}`;
  process.stdout.write(`\nMachine: ${machine}\n\n${formatTable(rows)}\n`);
  if (write) writeBenchmarksFile(path.join(PROJECT_ROOT, 'BENCHMARKS.md'), rows, machine, { quick, seconds });
  process.exit(failed ? 1 : 0);
}

await main();
