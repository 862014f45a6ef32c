// The tracked list: one Markdown file per bill in content/bills (`hr1234-119.md`), front matter
// naming the bill and why we follow it, body holding our own analysis. Read by sync, which stores
// the analysis beside the synced status so search and pages serve both from one row.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';
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

/**
 * The front matter we write is a flat YAML subset: `key: value`, quoted or plain scalars, and lists
 * as `[a, b]` or `- item` lines. A full YAML library is not needed for it.
 */
export function parseFrontMatter(text: string, file: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new ValidationError(`${file}: no front matter (the file must start with a --- block)`);
  const [, head = '', body = ''] = match;
  const data: Record<string, unknown> = {};
  let listKey: string | undefined;
  for (const [index, raw] of head.split(/\r?\n/).entries()) {
    const line = raw.trimEnd();
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey !== undefined) {
      (data[listKey] as unknown[]).push(scalar(item[1] ?? ''));
      continue;
    }
    const pair = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (!pair) throw new ValidationError(`${file}:${index + 2}: cannot read front matter line "${line}"`);
    const [, key = '', value = ''] = pair;
    if (value === '') {
      data[key] = [];
      listKey = key;
    } else if (value.startsWith('[') && value.endsWith(']')) {
      data[key] = value
        .slice(1, -1)
        .split(',')
        .map((part) => scalar(part))
        .filter((part) => part !== '');
      listKey = undefined;
    } else {
      data[key] = scalar(value);
      listKey = undefined;
    }
  }
  return { data, body: body.trim() };
}

function scalar(text: string): string {
  const value = text.trim();
  if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) {
    return value.slice(1, -1).replace(/\\"/g, '"');
  }
  return value;
}

export function parseTrackedBill(text: string, file: string): TrackedBill {
  const { data, body } = parseFrontMatter(text, file);
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
