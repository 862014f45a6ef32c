// `npm run keys` (the support path) against PostgreSQL, against the embedded database with no server,
// through a running server's admin socket, and refusing cleanly when the database is held without one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { adminSocketPath } from '../../api/access/admin-socket.ts';
import { createScratchPostgres } from '../support/databases.ts';
import { prefillDataDir } from '../support/pglite-templates.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { rawRequest } from '../support/http.ts';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The Node options `npm run keys` starts the CLI with (package.json): the test starts it the same way. */
const NODE_OPTIONS_OF_NPM_SCRIPT = (
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { keys: string } }
).scripts.keys
  .split(' ')
  .filter((word) => word.startsWith('--'));

function keysCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...NODE_OPTIONS_OF_NPM_SCRIPT, path.join(PROJECT_ROOT, 'scripts', 'keys.ts'), ...args],
      { cwd: PROJECT_ROOT, env: { ...process.env, BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'warn', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const json = (result: CliResult) => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
};

/** create → list → revoke, checking each answer; returns the created key. */
async function lifecycle(env: Record<string, string>): Promise<void> {
  const created = json(await keysCli(['create', '--email', 'ada@example.org', '--name', 'cli test', '--json'], env));
  expect(created.key).toMatch(/^mds_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
  expect(created.record).toMatchObject({ name: 'cli test', status: 'active', prefix: created.key.slice(0, 12) });

  const listed = json(await keysCli(['list', '--email', 'ADA@example.org', '--json'], env));
  expect(listed.keys).toHaveLength(1);
  expect(JSON.stringify(listed)).not.toContain(created.key.slice(13));

  const human = await keysCli(['list', '--email', 'ada@example.org'], env);
  expect(human.stdout).toContain(`${created.record.prefix}…  active`);

  const revoked = json(await keysCli(['revoke', created.record.prefix, '--json'], env));
  expect(revoked.record.status).toBe('revoked');
  const after = json(await keysCli(['list', '--email', 'ada@example.org', '--json'], env));
  expect(after.keys[0].status).toBe('revoked');
}

// Each call starts a Node process that opens the embedded database: seconds apiece on a busy machine.
// Every data folder starts with a migrated database (no initdb in the first call's process): what
// is tested here is the CLI, not a first start.
describe('keys CLI', { timeout: 180_000 }, () => {
  const folders: string[] = [];
  const tempDataDir = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-keys-'));
    folders.push(folder);
    return prefillDataDir(folder);
  };
  afterAll(() => {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('creates, lists and revokes keys in PostgreSQL', async () => {
    const scratch = await createScratchPostgres();
    try {
      await lifecycle({ DATABASE_URL: scratch.url });
    } finally {
      await scratch.drop();
    }
  });

  it('creates, lists and revokes keys in the embedded database when no server runs', async () => {
    await lifecycle({ DATA_DIR: await tempDataDir() });
  });

  it('refuses a fourth active key and explains usage errors', async () => {
    const env = { DATA_DIR: await tempDataDir() };
    for (let index = 0; index < 3; index += 1) json(await keysCli(['create', '--email', 'bob@example.org', '--json'], env));
    const fourth = await keysCli(['create', '--email', 'bob@example.org'], env);
    expect(fourth.code).toBe(1);
    expect(fourth.stderr).toMatch(/already has 3 active keys/);
    // --help (and -h) prints the usage and succeeds; an unknown option says so above it.
    const help = await keysCli(['--help'], env);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('npm run keys -- create --email <address>');
    expect((await keysCli(['-h'], env)).code).toBe(0);
    const unknown = await keysCli(['--colour'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--colour'[\s\S]*Usage:/);
    const usage = await keysCli(['create'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('create needs --email');
    const badEmail = await keysCli(['list', '--email', 'nobody'], env);
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toContain('not an email address');
  });

  it('refuses cleanly, changing nothing, when another process holds the embedded database without an admin socket', async () => {
    const dataDir = await tempDataDir();
    const env = { DATA_DIR: dataDir };
    const created = json(await keysCli(['create', '--email', 'ada@example.org', '--json'], env));
    // This test process stands in for a server that holds the folder but has no admin socket.
    const lockFile = path.join(dataDir, 'pglite', 'mds.pid');
    fs.writeFileSync(lockFile, String(process.pid));
    try {
      const refused = await keysCli(['create', '--email', 'ada@example.org'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`in use by process ${process.pid}`);
      expect(refused.stderr).toContain('nothing was changed');
      expect(refused.stdout).toBe('');
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    } finally {
      fs.rmSync(lockFile);
    }
    const listed = json(await keysCli(['list', '--email', 'ada@example.org', '--json'], env));
    expect(listed.keys.map((key: { prefix: string }) => key.prefix)).toEqual([created.record.prefix]);
  });

  describe('with a server running on the embedded database', () => {
    let server: ServerProcess;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = await tempDataDir();
      server = await startServerProcess({ DATA_DIR: dataDir, BASE_URL: 'http://localhost:3000', REQUIRE_API_KEY: 'true' });
      // The admin socket opens just after the listener (give a busy machine half a minute).
      for (let attempt = 0; attempt < 300 && !fs.existsSync(adminSocketPath(dataDir)); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }, 90_000);
    afterAll(async () => {
      await server.stop();
    });

    it('listens on an admin socket only its owner can use', () => {
      const socket = adminSocketPath(dataDir);
      expect(fs.statSync(socket).isSocket()).toBe(true);
      expect(fs.statSync(socket).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
    });

    it('manages keys through the server, which honours them at once', async () => {
      const env = { DATA_DIR: dataDir };
      const created = json(await keysCli(['create', '--email', 'ada@example.org', '--json'], env));
      const openapi = await rawRequest(`${server.url}/api/v1/openapi.json`);
      expect(openapi.status).toBe(200);
      const paths = Object.keys((JSON.parse(openapi.body) as { paths: Record<string, unknown> }).paths).filter(
        (p) => !['/healthz', '/openapi.json', '/ask'].includes(p) && !p.includes('{'),
      );
      const limited = `${server.url}/api/v1${paths.includes('/rates') ? '/rates' : paths[0]}`;
      expect((await rawRequest(limited)).status).toBe(401);
      expect((await rawRequest(limited, { headers: { 'X-API-Key': created.key } })).status).not.toBe(401);

      json(await keysCli(['revoke', created.record.prefix, '--json'], env));
      expect((await rawRequest(limited, { headers: { 'X-API-Key': created.key } })).status).toBe(401);
      expect(server.output()).not.toContain(created.key.slice(13));
    });
  });
});
