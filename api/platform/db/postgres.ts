// PostgreSQL through a pg pool. Connection failures surface as ServiceUnavailableError (503) rather
// than as raw driver errors, so a database outage reads as "try again" to clients.
import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database.ts';
import { ServiceUnavailableError } from '../errors.ts';
import type { Logger } from '../logger.ts';

// Error codes that mean "the database is not reachable right now", not "your query is wrong".
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

export function isUnavailableError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}

function translate(error: unknown): never {
  if (isUnavailableError(error)) {
    throw new ServiceUnavailableError('The database is temporarily unavailable; please retry shortly.', 5);
  }
  throw error;
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
      try {
        const result = await client.query(sql, params as unknown[] | undefined);
        return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        return translate(error);
      }
    },
  };
}

export function createPostgresDatabase(connectionString: string, logger: Logger): Database {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', (error) => logger.warn({ err: error.message }, 'postgres idle client error'));
  const queryable = wrap(pool);

  /**
   * A client of its own from the pool, for work that spans several queries. pg gives a checked-out
   * client no 'error' listener, and a client whose connection dies (a restart, a failover) emits
   * 'error' even between queries, which would end the process as an uncaught exception. While the
   * client is out, its errors are logged here instead; its next query fails as unavailable (503),
   * and `release` hands a broken client back for the pool to discard rather than reuse.
   */
  async function checkOut(): Promise<{ client: pg.PoolClient; release: () => void }> {
    const client = await pool.connect().catch(translate);
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken ??= error;
      logger.warn({ err: error.message }, 'postgres connection lost while in use');
    };
    client.on('error', onError);
    return {
      client,
      release() {
        client.removeListener('error', onError);
        client.release(broken);
      },
    };
  }

  return {
    kind: 'postgres',
    query: queryable.query,
    async exec(sql) {
      await queryable.query(sql);
    },
    async transaction(work) {
      const { client, release } = await checkOut();
      const tx = wrap(client);
      try {
        await tx.query('BEGIN');
        const value = await work(tx);
        await tx.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        release();
      }
    },
    async withAdvisoryLock(key, work) {
      const { client, release } = await checkOut();
      try {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key]);
        if (!rows[0]?.locked) return { acquired: false };
        try {
          return { acquired: true, value: await work() };
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
        }
      } finally {
        release();
      }
    },
    // A pool of its own from the same URL: its sessions are other connections, as another instance's are.
    async connectThread() {
      return { kind: 'postgres', url: connectionString };
    },
    async close() {
      await pool.end();
    },
  };
}
