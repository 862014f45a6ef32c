// Runs the real server entry point (api/main.ts) as a child process, the way `npm start` does after
// its build step.
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';
import { SERVICE_READY, spawnServer, type ChildServer } from '../../scripts/lib/child-server.ts';

export type ServerProcess = ChildServer;

export function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  return spawnServer(path.join(PROJECT_ROOT, 'api', 'main.ts'), {
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: 'http://localhost:3000',
      LOG_LEVEL: 'info',
      SYNC_ON_START: 'false',
      SYNC_DAILY: 'false',
      ...env,
    },
    ready: SERVICE_READY,
    timeoutMs,
  });
}
