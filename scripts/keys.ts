// `npm run keys -- create --email <address> [--name <label>] | list --email <address> | revoke <prefix>`:
// the support path for API keys. With PostgreSQL it opens the database; with the embedded database it
// asks the running server over its admin socket, or opens the folder itself when no server holds it.
// package.json starts it with `node --liftoff-only`: V8 then runs PGlite's WebAssembly with its
// baseline compiler alone, and does not recompile the hot functions with its optimising one, work a
// command of a few statements never earns back (an embedded-database command: 1.1 s to 0.65 s of CPU).
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../api/config.ts';
import { createLogger } from '../api/platform/logger.ts';
import { openDatabase } from '../api/platform/db/open.ts';
import { DatabaseInUseError } from '../api/platform/db/pglite.ts';
import { toErrorResponse } from '../api/platform/errors.ts';
import { KeyStore, normaliseEmail, normaliseKeyName } from '../api/access/key-store.ts';
import { formatKeysResult, runKeysCommand, type KeysCommand, type KeysResult } from '../api/access/keys-admin.ts';
import { AdminSocketUnavailable, adminSocketPath, sendAdminCommand } from '../api/access/admin-socket.ts';

const USAGE = `Usage:
  npm run keys -- create --email <address> [--name <label>]   create a key (printed once)
  npm run keys -- list --email <address>                      list an account's keys
  npm run keys -- revoke <key-prefix>                         revoke a key, e.g. mds_Ab12Cd34
  npm run keys -- --help                                      this help
Add --json for machine-readable output.`;

class UsageError extends Error {}

function parseCommand(argv: string[]): { command: KeysCommand; json: boolean } | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // parseArgs says "Unknown option '--x'": keep its words, add the usage below.
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [verb, ...rest] = positionals;
  if (values.help || verb === 'help') return 'help';
  const json = values.json;
  if (verb === 'create' || verb === 'list') {
    if (values.email === undefined || rest.length > 0) throw new UsageError(`${verb} needs --email <address>.`);
    return {
      command: verb === 'create' ? { command: 'create', email: values.email, name: values.name } : { command: 'list', email: values.email },
      json,
    };
  }
  if (verb === 'revoke') {
    if (rest.length !== 1 || rest[0] === undefined) throw new UsageError('revoke needs the key prefix, e.g. revoke mds_Ab12Cd34.');
    return { command: { command: 'revoke', prefix: rest[0] }, json };
  }
  throw new UsageError(verb === undefined ? 'Give a command.' : `Unknown command "${verb}".`);
}

async function execute(command: KeysCommand): Promise<KeysResult> {
  const config = loadConfig();
  // Logs go to stderr, quietly, so stdout carries only the answer (and the key).
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, pino.destination(2));
  if (config.DATABASE_URL === undefined) {
    try {
      const reply = await sendAdminCommand(config.dataDir, command);
      if (!reply.ok) throw new Error(reply.error);
      return reply.result;
    } catch (error) {
      if (!(error instanceof AdminSocketUnavailable)) throw error;
    }
  }
  let db;
  try {
    db = await openDatabase(config, logger);
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      throw new Error(
        `${error.message}\nThat server did not answer on its admin socket (${adminSocketPath(config.dataDir)}), so nothing was changed. ` +
          'Run this command as the user that runs the server, or stop the server and run it again.',
        { cause: error },
      );
    }
    throw error;
  }
  try {
    return await runKeysCommand(new KeyStore(db, () => new Date()), command);
  } finally {
    await db.close();
  }
}

/**
 * Refuses an address or a key name the key store would refuse, before the database is opened: on
 * the embedded database the opening is most of a command's second of CPU.
 */
function checkArguments(command: KeysCommand): void {
  if (command.command === 'revoke') return;
  normaliseEmail(command.email);
  if (command.command === 'create') normaliseKeyName(command.name);
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    const command = parseCommand(process.argv.slice(2));
    if (command === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    parsed = command;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    checkArguments(parsed.command);
    const result = await execute(parsed.command);
    process.stdout.write(parsed.json ? `${JSON.stringify(result)}\n` : `${formatKeysResult(result)}\n`);
    return 0;
  } catch (error) {
    const { body, expected } = toErrorResponse(error);
    process.stderr.write(`Error: ${expected ? body.error : (error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main();
