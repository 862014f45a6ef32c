// A part that cannot be answered must not silence a part that can: "What rate did Rocket Mortgage
// give in Travis County last year, and what is the 2024 FHA one-unit limit there?" refuses the
// lender's rate first, then answers the limit. The question is cut into its clauses (compromise);
// a clause whose own read holds no blocking refusal is answered on its own, with the place the
// question named carried into it where it points back ("there", "that county": data,
// `placeReferences` in data/ask/reader-words.json).
import nlp from 'compromise';
import type { AnswerDraft } from './draft.ts';
import type { Frame } from './reader/frame.ts';
import { lexicon } from './reader/lexicon.ts';

/** Whether a clause asks on its own: it opens, after any joining word, with a question word or a verb ("and what is …", "give …"). */
const asksAlone = (clause: string) => nlp(clause).has('^(and|but|also|plus)? (#QuestionWord|#Verb)');

/** Joining words that open a second ask without a question word ("…, plus the Colorado statewide count"). */
const ADDS = /^(plus|as well as|and also)\s+/i;

/**
 * Whether a sentence only sets the scene ("Seattle buyer here, King County WA.", "I'm an investor
 * looking at Austin."): it neither ends in a question mark nor opens with a question word or a verb.
 */
const asksNothing = (sentence: string) => !/\?\s*$/.test(sentence) && !nlp(sentence).has('^(#QuestionWord|#Verb)');

/**
 * The parts of a question, without the joining word ("and what is …" → "what is …"). compromise
 * cuts clauses at every comma; a piece that does not ask on its own ("Arizona this year") stays
 * with the part before it. A sentence that asks nothing is no part: its place is carried into the
 * parts instead.
 */
function clausesOf(question: string): string[] {
  const sentences = (nlp(question) as unknown as { sentences(): { out(format: 'array'): string[] } }).sentences().out('array');
  const asking = sentences.filter((sentence) => !asksNothing(sentence)).join(' ');
  const pieces = (nlp(asking) as unknown as { clauses(): { out(format: 'array'): string[] } }).clauses().out('array');
  const parts: string[] = [];
  for (const piece of pieces) {
    const text = piece.trim();
    if (parts.length > 0 && !asksAlone(text) && !ADDS.test(text)) parts[parts.length - 1] += ` ${text}`;
    else parts.push(text);
  }
  return parts
    .map((part) => part.replace(/^(and also|as well as|and|but|also|plus)\s+/i, '').replace(/[,;]+$/, ''))
    .filter((part) => part.split(/\s+/).length >= 3);
}

/** Words pointing back at the year the question named ("plus the statewide count that year"). */
const YEAR_REFERENCES = /\b(?:in )?(?:that|the same|that same) year\b/i;

/** The clause with a word pointing back at a place replaced by the place the whole question named. */
export function withPlace(clause: string, frame: Frame): string {
  const name = onlyPlace(frame);
  if (name === undefined) return clause;
  for (const [phrase, replacement] of Object.entries(lexicon().placeReferences)) {
    const pattern = new RegExp(`\\b${phrase.replace(/ /g, '\\s+')}\\b`, 'i');
    if (pattern.test(clause)) return clause.replace(pattern, replacement.replace('{place}', name));
  }
  return clause;
}

/** The one place the question named, if one. */
function onlyPlace(frame: Frame): string | undefined {
  const named = frame.places.filter((place) => place.kind !== 'nation');
  return named.length === 1 ? named[0]?.name : undefined;
}

/** The clause with "that year" replaced by the one year the question named. */
function withYear(clause: string, frame: Frame): string {
  const years = [...new Set(frame.times.filter((time) => time.grain === 'year').map((time) => time.from.slice(0, 4)))];
  return years.length === 1 && frame.times.length === 1 ? clause.replace(YEAR_REFERENCES, `in ${years[0]}`) : clause;
}

/**
 * A clause as it is asked alone: the place and year it points back to written out, the question's
 * one place added when the clause names none (the scene a first sentence set), and "HMDA" kept
 * when the question said it.
 */
function standAlone(clause: string, question: string, frame: Frame, own: Frame): string {
  let text = withYear(withPlace(clause, frame), frame);
  const place = onlyPlace(frame);
  const hasPlace = own.places.some((named) => named.kind !== 'nation') || own.placeSet?.state !== undefined;
  if (place !== undefined && !hasPlace && text === clause) text = `${text.replace(/[?.!]+$/, '')} in ${place}`;
  if (/\bHMDA\b/i.test(question) && !/\bHMDA\b/i.test(text)) text = `${text.replace(/[?.!]+$/, '')} in HMDA`;
  return text;
}

export interface PartReader {
  /** A clause's own frame, read alone. */
  read(clause: string): Promise<Frame>;
  /** The answer to a clause, asked alone. */
  answer(clause: string): Promise<AnswerDraft>;
}

/**
 * The answers of the clauses a blocking refusal does not touch, or undefined when every clause is
 * refused (or the question has one clause): the refusal alone then answers. The same sentence is
 * never given twice.
 */
export async function independentParts(question: string, frame: Frame, reader: PartReader): Promise<AnswerDraft | undefined> {
  const clauses = clausesOf(question);
  if (clauses.length < 2) return undefined;
  const free: string[] = [];
  for (const clause of clauses) {
    // Judged as it will be asked: "what is the FHA limit for a fourplex" is refused alone, not in the county the question set.
    const own = await reader.read(clause);
    const text = standAlone(clause, question, frame, own);
    const asked = text === clause ? own : await reader.read(text);
    if (!asked.refusals.some((refusal) => refusal.blocking)) free.push(text);
  }
  if (free.length === 0 || free.length === clauses.length) return undefined;
  const drafts = await Promise.all(free.map((clause) => reader.answer(clause)));
  const paragraphs = [...new Set(drafts.flatMap((draft) => draft.text.split('\n\n')))];
  return {
    text: paragraphs.join('\n\n'),
    sources: [...new Set(drafts.flatMap((draft) => draft.sources))],
    versions: drafts.flatMap((draft) => draft.versions ?? []),
  };
}
