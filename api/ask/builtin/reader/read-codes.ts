// Codes of one HMDA field written in a question ("purpose 31 vs 32", "action taken codes 1 and 3",
// "denial reason codes 1 and 4"): each code is a count of its own (the catalogue's code book), never
// a rate; a field the aggregates held do not count (denial reasons) is named, to be refused. The
// fields' words are data (data/ask/reader-words.json), the codes the catalogue's.
import { catalogue } from '../../../catalogue/measures.ts';
import type { MeasureSlot } from './frame.ts';
import { lexicon } from './lexicon.ts';
import { findPhrase, type Coverage, type Word } from './words.ts';

/** Words that may stand between a field and its codes, and between codes. */
const JOINERS = ['code', 'codes', 'and', 'or', 'vs', 'vs.', 'versus', 'of', '&', 'compared', 'with', 'to'];

export interface CodesRead {
  /** One count per code written, in the order written. */
  measures: MeasureSlot[];
  /** A field the aggregates do not count, as written with its codes ("denial reason codes 1 and 4"). */
  unheld?: string;
}

/** The codes written after word `end` (the field's last word): their word indexes and texts. */
function codesAfter(words: readonly Word[], end: number): { indexes: number[]; codes: string[] } {
  const indexes: number[] = [];
  const codes: string[] = [];
  for (let at = end + 1; at < words.length; at += 1) {
    const word = words[at] as Word;
    if (/^\d{1,2}$/.test(word.normal)) {
      indexes.push(at);
      codes.push(word.normal);
    } else if (JOINERS.includes(word.normal)) indexes.push(at);
    else break;
  }
  while (indexes.length > 0 && !codes.includes(words[indexes.at(-1) as number]?.normal ?? '')) indexes.pop();
  return { indexes, codes };
}

const slotOf = (template: string, code: string): MeasureSlot | undefined => {
  const entry = catalogue().templates.find((candidate) => candidate.id === template);
  if (!entry) return undefined;
  return { template, family: 'hmda', title: entry.title, kind: entry.kind, qualifiers: entry.qualifiers, words: [code] };
};

/** The codes of an HMDA field the question writes, consuming them; undefined when none is written. */
export function readCodes(coverage: Coverage): CodesRead | undefined {
  const words = coverage.words;
  const { codeFields, unheldCodeFields } = lexicon();
  for (const phrase of [...unheldCodeFields].sort((a, b) => b.length - a.length))
    for (const span of findPhrase(words, phrase)) {
      const { indexes, codes } = codesAfter(words, span.at(-1) as number);
      if (codes.length === 0) continue;
      coverage.take([...span, ...indexes], 'measure.unheld');
      const text = words.slice(span[0], (indexes.at(-1) as number) + 1).map((word) => word.text);
      return { measures: [], unheld: text.join(' ') };
    }
  const { hmdaCodes } = catalogue();
  for (const [label, phrases] of Object.entries(codeFields))
    for (const phrase of [...phrases].sort((a, b) => b.length - a.length))
      for (const span of findPhrase(words, phrase)) {
        const { indexes, codes } = codesAfter(words, span.at(-1) as number);
        const known = codes.flatMap((code) => {
          const entry = hmdaCodes.find((candidate) => candidate.label === label && candidate.code === code);
          const slot = entry?.series ? slotOf(entry.series, code) : undefined;
          return slot ? [slot] : [];
        });
        if (known.length === 0 || known.length !== codes.length) continue;
        coverage.take([...span, ...indexes], 'measure');
        return { measures: known };
      }
  return undefined;
}
