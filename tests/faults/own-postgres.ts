// A throwaway PostgreSQL cluster of the test's own (initdb into a temp folder, its own port and
// socket folder), so a fault test can stop and restart a database without touching the shared one
// at 127.0.0.1:5432. initdb refuses to run as root: as root, the cluster runs as the `postgres` user.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { freePort } from '../../scripts/lib/child-server.ts';

export interface OwnPostgres {
  url: string;
  stop(): void;
  start(): void;
  /** Stops the cluster (if running) and deletes its folder. */
  destroy(): void;
}

/** The newest installed server binaries, e.g. /usr/lib/postgresql/16/bin, or undefined. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

const isRoot = () => process.getuid?.() === 0;

function asClusterUser(command: string, args: string[]): { status: number | null; output: string } {
  const [file, fullArgs] = isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(file, fullArgs, { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

/** Why an own cluster cannot be made here, or undefined when it can. */
export function ownPostgresUnavailable(): string | undefined {
  const bin = binDir();
  if (!bin) return 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin';
  if (isRoot()) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root and there is no `postgres` user to run initdb as';
    }
  }
  return undefined;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binDir();
  if (!bin) throw new Error('no PostgreSQL server binaries');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-own-pg-'));
  const dataDir = path.join(dir, 'data');
  if (isRoot()) {
    fs.chmodSync(dir, 0o755);
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  const initdb = asClusterUser(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  if (initdb.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${initdb.output}`);
  }
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const pgCtl = (action: string[]) => {
    const result = asClusterUser(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-w', '-t', '30', ...action]);
    if (result.status !== 0) throw new Error(`pg_ctl ${action[0]} failed: ${result.output}`);
  };
  let running = false;
  const cluster: OwnPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start() {
      pgCtl(['start', '-o', options, '-l', path.join(dir, 'server.log')]);
      running = true;
    },
    stop() {
      // fast: disconnects clients at once, as a crash or a maintenance restart would.
      pgCtl(['stop', '-m', 'fast']);
      running = false;
    },
    destroy() {
      if (running) {
        try {
          pgCtl(['stop', '-m', 'immediate']);
        } catch {
          // already gone
        }
        running = false;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    cluster.start();
  } catch (error) {
    cluster.destroy();
    throw error;
  }
  return cluster;
}
