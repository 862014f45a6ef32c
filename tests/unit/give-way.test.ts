import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { giveWay, SLICE_MS } from '../../api/platform/give-way.ts';

/** Busy for `ms` without letting the event loop turn. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

/** Runs `items` items of `msEach` of work, giving way between them; the index of the item during which `done()` first held. */
async function longLoop(items: number, msEach: number, done: () => boolean): Promise<number | undefined> {
  let seenAt: number | undefined;
  for (let item = 0; item < items; item += 1) {
    if (seenAt === undefined && done()) seenAt = item;
    spin(msEach);
    await giveWay();
  }
  return seenAt;
}

describe('giveWay', () => {
  it('lets a pending timer run during a long loop that calls it between items', async () => {
    let timerRan = false;
    setTimeout(() => {
      timerRan = true;
    }, 0);
    const seenAt = await longLoop(40, SLICE_MS / 2, () => timerRan);
    // Not after the loop: while it was still going.
    expect(seenAt).toBeDefined();
  });

  it('lets a request be answered during a long loop', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      let answered = false;
      const request = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).then(async (response) => {
        answered = (await response.text()) === 'ok';
      });
      const seenAt = await longLoop(200, SLICE_MS / 2, () => answered);
      await request;
      expect(seenAt).toBeDefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
