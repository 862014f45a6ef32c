// `npm run conformance`: the official MCP conformance suite against this server, three times:
// @modelcontextprotocol/conformance 0.2.x with `--requirements 2026-07-28` and with
// `--requirements 2025-11-25`, and 0.1.16 (the npm alias `mcp-conformance-0.1`). Each run may fail
// only what its baseline in tests/conformance/ lists, check by check, with why (docs/mcp.md); a new
// failure, or a listed one that now passes, fails the command. Runs offline: the server starts here,
// on a random loopback port, with an embedded database in a temporary folder and no sync.
//
//   npm run conformance                       # start a server and run all three
//   npm run conformance -- --url <mcp url>    # against a server already running
//   npm run conformance -- --keep             # keep each check's JSON (the folder is printed)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASELINES = path.join(ROOT, 'tests', 'conformance');

interface Run {
  name: string;
  /** The suite's command-line entry, inside node_modules. */
  bin: string;
  args: string[];
  baseline: string;
}

const RUNS: Run[] = [
  {
    name: '0.2.x --requirements 2026-07-28',
    bin: '@modelcontextprotocol/conformance',
    args: ['--requirements', '2026-07-28'],
    baseline: '2026-07-28.yaml',
  },
  {
    name: '0.2.x --requirements 2025-11-25',
    bin: '@modelcontextprotocol/conformance',
    args: ['--requirements', '2025-11-25'],
    baseline: '2025-11-25.yaml',
  },
  { name: '0.1.16', bin: 'mcp-conformance-0.1', args: [], baseline: '0.1.16.yaml' },
];

function runSuite(run: Run, url: string, outputDir: string): Promise<{ code: number; summary: string }> {
  const entry = path.join(ROOT, 'node_modules', run.bin, 'dist', 'index.js');
  const args = [entry, 'server', '--url', url, ...run.args, '--expected-failures', path.join(BASELINES, run.baseline), '-o', outputDir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: outputDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // The suite's own summary: from its SUMMARY line to the baseline verdict.
      const start = output.indexOf('=== SUMMARY ===');
      resolve({ code: code ?? 1, summary: start === -1 ? output : output.slice(start) });
    });
  });
}

/** Starts the service on a random loopback port with a fresh embedded database; returns its MCP URL and its stopper. */
async function startLocalServer(dataDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const { loadConfig } = await import('../api/config.ts');
  const { startServer } = await import('../api/server.ts');
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL: 'http://127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SYNC_ON_START: 'false',
    SYNC_DAILY: 'false',
    LOG_LEVEL: 'warn',
    // The suite sends hundreds of requests from one address.
    RATE_LIMIT_ANON_PER_MINUTE: '0',
    RATE_LIMIT_KEY_PER_MINUTE: '0',
    RATE_LIMIT_PER_HOUR: '0',
  });
  const running = await startServer(config);
  return { url: `${running.url}/api/mcp`, close: running.close };
}

const { values } = parseArgs({ options: { url: { type: 'string' }, keep: { type: 'boolean', default: false } } });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-conformance-'));
const server = values.url === undefined ? await startLocalServer(path.join(work, 'data')) : { url: values.url, close: async () => {} };
let failed = 0;
try {
  for (const run of RUNS) {
    const outputDir = path.join(work, run.baseline.replace(/\.yaml$/, ''));
    fs.mkdirSync(outputDir, { recursive: true });
    process.stdout.write(`\n### conformance ${run.name} against ${server.url}\n`);
    const { code, summary } = await runSuite(run, server.url, outputDir);
    process.stdout.write(`${summary.trim()}\n`);
    if (code !== 0) failed += 1;
  }
} finally {
  await server.close();
  if (values.keep) process.stdout.write(`\nEach check's JSON: ${work}\n`);
  else fs.rmSync(work, { recursive: true, force: true });
}
process.stdout.write(
  failed === 0 ? '\nConformance: every run within its baseline.\n' : `\nConformance: ${failed} run(s) outside their baseline.\n`,
);
process.exit(failed === 0 ? 0 : 1);
