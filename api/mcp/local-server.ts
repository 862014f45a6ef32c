// Where the server that holds a data folder's embedded database answers, written into that folder
// (DATA_DIR/admin/server.json, folder 0700, file 0600) while it runs. PGlite allows one process per
// folder, so `npm run mcp:stdio` started beside a running server relays to it through this address.
// A server writes its pid alone as soon as it holds the folder, and its address once it listens: a
// stdio process then waits for a starting server, and gives up at once on a holder that is none.
import fs from 'node:fs';
import path from 'node:path';

export interface LocalServerRecord {
  pid: number;
  /** Base URL on the loopback interface, e.g. http://127.0.0.1:3000; none while the server starts. */
  url?: string;
}

export function localServerFile(dataDir: string): string {
  return path.join(dataDir, 'admin', 'server.json');
}

/** Says that this process, which holds the folder's database, is a server still starting. */
export function recordStartingServer(dataDir: string): void {
  recordLocalServer(dataDir, undefined);
}

/** Writes this process's address; returns the function that removes it again (if still ours). */
export function recordLocalServer(dataDir: string, url: string | undefined): () => void {
  const file = localServerFile(dataDir);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const record: LocalServerRecord = { pid: process.pid, ...(url === undefined ? {} : { url }) };
    fs.writeFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch {
    // Without the record a stdio process explains that the database is in use instead of relaying.
    return () => undefined;
  }
  return () => {
    if (readLocalServer(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
}

/** The recorded server when its process is still alive; undefined otherwise. */
export function readLocalServer(dataDir: string): LocalServerRecord | undefined {
  let record: Partial<LocalServerRecord>;
  try {
    record = JSON.parse(fs.readFileSync(localServerFile(dataDir), 'utf8')) as Partial<LocalServerRecord>;
  } catch {
    return undefined;
  }
  const url = record.url;
  if (
    typeof record.pid !== 'number' ||
    (url !== undefined && (typeof url !== 'string' || !/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/.test(url)))
  )
    return undefined;
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return { pid: record.pid, ...(url === undefined ? {} : { url }) };
}
