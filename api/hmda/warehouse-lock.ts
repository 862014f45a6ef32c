// One writer at a time per warehouse folder: the server's background load and `npm run sync -- hmda`
// (another process) both stage and publish into it. A lock file holds the writer's pid; one left by
// a process that died is taken over.
import fs from 'node:fs';
import path from 'node:path';

export type WarehouseLock = { acquired: true; release: () => void } | { acquired: false; heldBy: number };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockWarehouse(root: string): WarehouseLock {
  fs.mkdirSync(root, { recursive: true });
  const file = path.join(root, '.load.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return { acquired: true, release: () => fs.rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) return { acquired: false, heldBy: holder };
      fs.rmSync(file, { force: true }); // left by a process that died
    }
  }
  return { acquired: false, heldBy: 0 };
}
