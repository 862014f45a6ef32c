// The tracked list: one Markdown file per bill in content/bills (`hr1234-119.md`), front matter
// naming the bill and why we follow it, body holding our own analysis. Read by sync, which stores
// the analysis beside the synced status so search and pages serve both from one row.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';
import { ContentError, splitFrontMatter } from '../content/markdown.ts';
import { ValidationError } from '../sync/errors.ts';
import { BILL_TYPES, parseBillId, type BillRef } from './bill-id.ts';

export const TRACKED_BILLS_DIR = path.join(PROJECT_ROOT, 'content', 'bills');

export interface TrackedBill extends BillRef {
  shortTitle: string;
  topics: string[];
  whyWeTrack: string;
  /** Our analysis: plain paragraphs separated by blank lines. */
  analysis: string;
  file: string;
}

const frontMatterSchema = z.object({
  bill_id: z.string(),
  congress: z.coerce.number().int(),
  type: z.enum(BILL_TYPES),
  number: z.coerce.number().int().positive(),
  short_title: z.string().min(3),
  topics: z.array(z.string().min(2)).min(1),
  why_we_track: z.string().min(20),
});

export const ANALYSIS_WORDS = { min: 120, max: 300 } as const;

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** The front matter (YAML) and the analysis below it; a file without a readable block is refused. */
function readFrontMatter(text: string, file: string): { data: unknown; body: string } {
  try {
    const { frontMatter, body } = splitFrontMatter(file, text);
    return { data: frontMatter, body: body.trim() };
  } catch (error) {
    if (error instanceof ContentError) throw new ValidationError(error.message);
    throw error;
  }
}

export function parseTrackedBill(text: string, file: string): TrackedBill {
  const { data, body } = readFrontMatter(text, file);
  const parsed = frontMatterSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ValidationError(`${file}: bad front matter (${problems})`);
  }
  const front = parsed.data;
  const ref = parseBillId(front.bill_id);
  if (!ref || ref.type !== front.type || ref.number !== front.number || ref.congress !== front.congress) {
    throw new ValidationError(`${file}: bill_id "${front.bill_id}" does not match type/number/congress`);
  }
  if (path.basename(file, '.md') !== ref.billId) throw new ValidationError(`${file}: file name must be ${ref.billId}.md`);
  const words = wordCount(body);
  if (words < ANALYSIS_WORDS.min || words > ANALYSIS_WORDS.max) {
    throw new ValidationError(`${file}: analysis has ${words} words; write ${ANALYSIS_WORDS.min}–${ANALYSIS_WORDS.max}`);
  }
  return { ...ref, shortTitle: front.short_title, topics: front.topics, whyWeTrack: front.why_we_track, analysis: body, file };
}

/** Every tracked bill, sorted by id. */
export async function readTrackedBills(dir: string = TRACKED_BILLS_DIR): Promise<TrackedBill[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    throw new ValidationError(`the tracked-bill folder ${dir} is missing`);
  }
  const files = names.filter((name) => name.endsWith('.md') && name !== 'README.md').sort();
  const bills: TrackedBill[] = [];
  for (const name of files) {
    const file = path.join(dir, name);
    bills.push(parseTrackedBill(await fs.readFile(file, 'utf8'), file));
  }
  return bills;
}
