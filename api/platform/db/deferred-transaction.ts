// A transaction that begins at its first statement. With the embedded database every other statement
// waits while a transaction is open (PGlite runs one at a time), so work that reads and parses source
// files before it writes should not hold the database meanwhile: a sync's load opens its transaction
// when it first writes (or reads), not when it starts parsing. On PostgreSQL nothing changes in what
// the transaction sees: its snapshot is taken at its first statement either way.
import type { Database, Queryable } from './database.ts';

export async function withDeferredTransaction<T>(db: Pick<Database, 'transaction'>, work: (tx: Queryable) => Promise<T>): Promise<T> {
  let opened: Promise<Queryable> | undefined;
  let end: { commit: () => void; rollBack: (error: unknown) => void } | undefined;
  let ended: Promise<unknown> | undefined;

  const begin = (): Promise<Queryable> =>
    (opened ??= new Promise<Queryable>((resolve, reject) => {
      ended = db.transaction(
        (tx) =>
          new Promise<void>((commit, rollBack) => {
            end = { commit, rollBack };
            resolve(tx);
          }),
      );
      // A transaction that cannot begin rejects the statement that asked for it.
      ended.catch(reject);
    }));

  const tx: Queryable = {
    query: async (sql, params) => (await begin()).query(sql, params),
  };

  let value: T;
  try {
    value = await work(tx);
  } catch (error) {
    if (opened !== undefined) {
      await opened.then(
        () => end?.rollBack(error),
        () => undefined,
      );
      await ended?.catch(() => undefined);
    }
    throw error;
  }
  if (opened !== undefined) {
    await opened;
    end?.commit();
    await ended;
  }
  return value;
}
