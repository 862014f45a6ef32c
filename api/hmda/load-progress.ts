// Where the background load of HMDA stands (api/hmda/first-load.ts): for /healthz and the log in
// operators' words, and, in readers' words, for answers while records are missing ("not loaded yet,
// since …; 12 of 55 states of 2025 loaded"). When the load began is kept in the warehouse folder, so
// "since" survives a restart, as the published state-years do.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const HmdaLoadStatusSchema = z.object({
  state: z
    .enum(['not_started', 'off', 'waiting', 'loading', 'done', 'skipped'])
    .describe(
      'off: SYNC_ON_START is false; waiting: the publisher cannot be reached (retried); skipped: nothing to load from (no mirror files); done: every state-year tried.',
    ),
  year: z.int().nullable().describe('The activity year being loaded.'),
  states_total: z.int(),
  states_published: z.int().describe('State-years of that year in the warehouse (loaded now or before a restart).'),
  states_failed: z
    .array(z.object({ state: z.string(), reason: z.string() }))
    .describe('Not published this run, with why (e.g. counts that differ from the official aggregates).'),
  current: z.string().nullable().describe('The state being loaded now.'),
  since: z.string().nullable().describe('When the first background load began (ISO 8601).'),
  updated_at: z.string().nullable(),
  message: z.string().describe('One sentence for operators: what happens next, or what to do.'),
});
export type HmdaLoadStatus = z.infer<typeof HmdaLoadStatusSchema>;

const STATE_FILE = 'first-load.json';

export class LoadProgress {
  private status: HmdaLoadStatus;
  private readonly file: string;

  constructor(root: string) {
    this.file = path.join(root, STATE_FILE);
    this.status = {
      state: 'not_started',
      year: null,
      states_total: 0,
      states_published: 0,
      states_failed: [],
      current: null,
      since: this.readSince(),
      updated_at: null,
      message: 'The background HMDA load has not started yet.',
    };
  }

  private readSince(): string | null {
    try {
      const since = (JSON.parse(fs.readFileSync(this.file, 'utf8')) as { since?: unknown }).since;
      return typeof since === 'string' ? since : null;
    } catch {
      return null;
    }
  }

  /** Records when the first load began, once: a later start keeps the first date. */
  began(at: Date): void {
    if (this.status.since !== null) return;
    this.status.since = at.toISOString();
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(this.file, `${JSON.stringify({ since: this.status.since })}\n`);
    } catch {
      // Only "since" is lost across a restart; the load itself goes on.
    }
  }

  update(change: Partial<HmdaLoadStatus>, at: Date): void {
    this.status = { ...this.status, ...change, updated_at: at.toISOString() };
  }

  get(): HmdaLoadStatus {
    return { ...this.status, states_failed: [...this.status.states_failed] };
  }

  /** For readers: whether more records are on their way, in a sentence (empty when nothing is under way). */
  publicNote(): string {
    const { state, year, states_published: published, states_total: total } = this.status;
    if (state === 'loading' && year !== null)
      return `Loading ${year} for every state is under way (${published} of ${total} states loaded so far).`;
    if (state === 'waiting' && year !== null) return `Loading ${year} is waiting for the FFIEC to be reachable.`;
    return '';
  }
}
